"""Rule variants: options, pattern names and a Python face on each variant's kernels."""
