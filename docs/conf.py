"""Sphinx configuration: python -m sphinx -W -b html docs docs/_build/html

The Markdown pages are MyST; the API reference (api/) is autodoc over the
numpy-style docstrings (napoleon). The package is imported from the source
tree, so build the extensions in place first (or pip install ".[docs]").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

project = "dnnl for Python"
author = "dnnl for Python contributors"
copyright = "oneDNN semantics: Intel Corporation and UXL Foundation; this project: its contributors"
release = "0.1.0"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_member_order = "bysource"
autodoc_typehints = "none"        # signatures as written; types live in the .pyi stubs
html_theme = "alabaster"
html_static_path = []
