"""What every benchmark prints first: machine, Python, date and commit."""

from __future__ import annotations

import os
import platform
import subprocess
import time


def print_header() -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}")
    print(f"date: {time.strftime('%Y-%m-%d')}, commit: {commit or '?'}")
