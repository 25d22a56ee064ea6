"""The revisions, one module each, named ``NNNN_slug.py`` with revision id ``NNNN``."""
