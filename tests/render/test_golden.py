"""Tricky positions compared with their golden images (tests/render/golden.py; ``make golden``
redraws them). A small tolerance lets anti-aliasing and font hinting vary; a moved, missing or
recoloured piece does not pass."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from tests.render.golden import CASES, images, path

MEAN_TOLERANCE = 1.5
"""Mean absolute difference per channel (0..255)."""
FAR = 64
"""A pixel differing by more than this on some channel counts as changed ..."""
CHANGED_TOLERANCE = 0.004
"""... and at most this fraction of pixels may change."""


def differs(img: Image.Image, gold: Image.Image) -> str:
    """Why two images are not the same picture within the tolerance ("" when they are)."""
    if img.size != gold.size:
        return f"size {img.size} against {gold.size}"
    diff = ImageChops.difference(img, gold)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    far = diff.convert("L").point(lambda v: 255 if v > FAR // 3 else 0)
    changed = ImageStat.Stat(far).mean[0] / 255
    if mean > MEAN_TOLERANCE or changed > CHANGED_TOLERANCE:
        return f"mean difference {mean:.2f}, {changed:.2%} of pixels changed"
    return ""


@pytest.mark.parametrize("name", sorted(CASES))
def test_tricky_position_matches_its_golden_image(name):
    for which, img in images(name).items():
        gold = Image.open(path(name, which)).convert("RGB")
        why = differs(img, gold)
        assert not why, f"{name}-{which}: {why} (run `make golden` and look at the pictures if intended)"


def test_the_comparison_catches_a_moved_counter():
    img = images("chitin_three_stacks")["focus"]
    moved = img.copy()
    ImageDraw.Draw(moved).rectangle([100, 100, 140, 140], fill=(178, 38, 36))
    assert differs(moved, img)
    assert not differs(img.copy(), img)
