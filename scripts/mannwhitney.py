"""The two-sided Mann-Whitney test the A/B summaries use (scripts/stream-ab-summary.py,
scripts/ingress-ab-summary.py; scripts/ab.sh and scripts/ingress-styles.sh compute the same in awk).
Normal approximation without tie correction: with 4-8 values per side, p above about 0.1 means noise."""
import math


def mw(a, b):
    """Two-sided p that the values a and b come from one distribution; nan if either is empty."""
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        return float('nan')
    u = sum(1 if x > y else 0.5 if x == y else 0 for x in a for y in b)
    sd = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return math.erfc(abs(u - n1 * n2 / 2) / sd / math.sqrt(2)) if sd else 1.0
