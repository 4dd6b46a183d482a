"""Every framework's resize mode beyond oneDNN's two resampling algorithms
(ONNX Resize's attributes, PyTorch's, OpenCV's and PIL's modes): the per-axis
weight tables and their application (``plan.py``). Not a oneDNN primitive:
``dnnl.resample`` reaches it (dnnl/arrays/resize_modes.py)."""
