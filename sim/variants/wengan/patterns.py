"""Weng'an 贵州瓮安麻将: the pattern table 牌型分 (§wengan-pattern-score), declared once.

Each row is (code, Chinese name, English id, points). The scoring kernels (``scoring``) return the
code; frames, replays and reports name it from here. Pure Python.

Exactly one row applies to a won hand, the highest-scoring one it fits; the flush rows already
include the flush (清大对 is 15, not 5 + 10). Code 0 is no win.
"""

from __future__ import annotations

PATTERN_NONE = 0
PING_HU = 1  # 平胡: four sets and any pair
DA_DUI_ZI = 2  # 大对子: every set a triplet or a kong
QI_DUI = 3  # 七对: seven pairs, no melds
LONG_QI_DUI = 4  # 龙七对: seven pairs with a quad (by default made by the winning tile)
QING_YI_SE = 5  # 清一色: one suit, with sequences
QING_DA_DUI = 6  # 清大对
QING_QI_DUI = 7  # 清七对
QING_LONG_BEI = 8  # 青龙背: flush 龙七对
DAN_DIAO = 9  # 单吊: by default four melds and a single-tile wait (金钩钓)
QING_DAN_DIAO = 10  # 清单吊

PATTERNS = (
    (PING_HU, "平胡", "plain", 1),
    (DA_DUI_ZI, "大对子", "all_triplets", 5),
    (QI_DUI, "七对", "seven_pairs", 5),
    (LONG_QI_DUI, "龙七对", "dragon_seven_pairs", 20),
    (QING_YI_SE, "清一色", "flush", 10),
    (QING_DA_DUI, "清大对", "flush_all_triplets", 15),
    (QING_QI_DUI, "清七对", "flush_seven_pairs", 15),
    (QING_LONG_BEI, "青龙背", "flush_dragon_seven_pairs", 30),
    (DAN_DIAO, "单吊", "single_wait", 10),
    (QING_DAN_DIAO, "清单吊", "flush_single_wait", 20),
)
"""Every row of §wengan-pattern-score: (code, Chinese name, English id, points)."""

N_PATTERNS = len(PATTERNS) + 1
"""Codes run from 0 (no win) to ``N_PATTERNS - 1``."""

FLUSH_OF = {
    PING_HU: QING_YI_SE,
    DA_DUI_ZI: QING_DA_DUI,
    QI_DUI: QING_QI_DUI,
    LONG_QI_DUI: QING_LONG_BEI,
    DAN_DIAO: QING_DAN_DIAO,
}
"""The row a hand of one suit scores instead (§wengan-pattern-score)."""

PATTERN_NAMES = {code: chinese for code, chinese, _, _ in PATTERNS}
PATTERN_IDS = {code: english for code, _, english, _ in PATTERNS}
PATTERN_POINTS = {code: points for code, _, _, points in PATTERNS}
PATTERN_BY_NAME = {chinese: code for code, chinese, _, _ in PATTERNS}
"""Chinese name -> code (the reference settlement names patterns in Chinese)."""
