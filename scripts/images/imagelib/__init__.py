"""Stackwright's test-image builder: recipes in images/*.toml, layers built with mmdebstrap and
overlayfs, images written as docker-archive tarballs for `ctr image import` (docs/images.md)."""
