"""The resampling layouts: where an array's channels are, and a single image
as the batch of one the kernels take.

:func:`dnnl.resample` and :func:`dnnl.resample_backward` take batches, the
channels first (``"nchw"``, ``"ncw"``, ``"ncdhw"``, ``"channels_first"``,
all the same at any rank) or last (``"nhwc"``, ``"nwc"``, ``"ndhwc"``,
``"channels_last"``), and single images as users hold them:
``"hwc"`` (H x W x C), ``"hw"`` (a grayscale H x W) and ``"chw"``. An image
is a view of a batch of one (``img[None]``, ``img[None, None]``): nothing is
copied in, and the result is the image of a batch view over a new array (or
over ``out``), nothing copied out.
"""
import typing

from dnnl._core.error import invalid


class Layout(typing.NamedTuple):
    """One layout name, as the array functions read it."""

    name: str
    last: bool      # the channels are the last dim (of the batch view)
    rank: object    # an image's rank; None: a batch, 3, 4 or 5 dims
    added: int      # the leading dims of 1 that make the array a batch view


# name: (channels last, rank, dims added)
# One rule (docs/arrays.md, "Resample a batch"): a batch's name says where
# the channels are, whatever the rank ("nwc" on a 5-D array is "nhwc").
_BATCHES = {"nchw": (False, None, 0), "ncw": (False, None, 0), "ncdhw": (False, None, 0),
            "channels_first": (False, None, 0),
            "nhwc": (True, None, 0), "nwc": (True, None, 0), "ndhwc": (True, None, 0),
            "channels_last": (True, None, 0)}
_IMAGES = {"hwc": (True, 3, 1), "chw": (False, 3, 1), "hw": (False, 2, 2)}
# what an image layout is, and what to pass for an array of another rank
_IMAGE_TEXT = {"hwc": ("one H x W x C image", "a batch of them is layout='nhwc'"),
               "chw": ("one C x H x W image", "a batch of them is layout='nchw'"),
               "hw": ("one H x W grayscale image", "an H x W x C image is layout='hwc'")}


def parse(layout, ndim):
    """The :class:`Layout` of ``layout`` for an array of ``ndim`` dims,
    refusing, with the layout to pass, a name it does not know or a rank
    it is not for."""
    name = layout.lower() if isinstance(layout, str) else None
    facts = _BATCHES.get(name) or _IMAGES.get(name)
    if facts is None:
        raise invalid("layout must name where the channels are: 'nchw' (second) or 'nhwc' "
                      "(last) for a batch; 'hwc', 'chw' or 'hw' (grayscale) for one image; "
                      "not %r" % (layout,))
    lay = Layout(name, *facts)
    if name in _IMAGES:
        if ndim != lay.rank:
            what, fix = _IMAGE_TEXT[name]
            raise invalid("layout %r is %s (%d dims), the array has %d: %s"
                          % (layout, what, lay.rank, ndim, fix))
    elif ndim not in (3, 4, 5):
        raise invalid("resampling a batch takes 3, 4 or 5 dims (N, C and 1-3 spatial), not "
                      "%d%s" % (ndim, "; one H x W grayscale image? pass layout='hw'"
                                if ndim == 2 else ""))
    return lay


def batch(a, lay):
    """The N x ... view of the array ``a`` in layout ``lay`` (``a`` itself
    for a batch; an image with leading dims of 1)."""
    return a[(None,) * lay.added] if lay.added else a


def logical(a, lay):
    """The N, C, spatial... view of the array ``a`` in layout ``lay`` (a
    single image: its batch of one; channels last: moved; no copy)."""
    b = batch(a, lay)
    if not lay.last:
        return b
    n = b.ndim      # the channels moved to axis 1 (np.moveaxis costs a new image size 4 us)
    return b.transpose((0, n - 1) + tuple(range(1, n - 1)))


def spatial_axes(ndim, lay):
    """The axes of an array of ``ndim`` dims in layout ``lay`` that are
    spatial (the others, batch and channels, are not mixed)."""
    first = (1 if lay.last else 2) - lay.added
    return tuple(range(first, ndim - 1 if lay.last else ndim))


def result_shape(a, lay, spatial):
    """The shape of the result of ``a`` (layout ``lay``) resized to ``spatial``."""
    b = batch(a, lay)
    n, c = (b.shape[0], b.shape[-1]) if lay.last else b.shape[:2]
    shape = (n,) + tuple(spatial) + (c,) if lay.last else (n, c) + tuple(spatial)
    return shape[lay.added:]


def size_hint(ndim, lay, count):
    """What to add to the message when ``count`` sizes (or factors) do not
    fit an array of ``ndim`` dims in layout ``lay``: one more than the
    spatial dims of a 3-D batch is a single image without its batch dim."""
    if lay.added or ndim != 3 or count != 2:
        return ""
    if lay.last:
        return "; one H x W x C image? pass layout='hwc'"
    return ("; one H x W x C image? pass layout='hwc' (one C x H x W image: "
            "layout='chw')")


def dense_last(v):
    """Whether the N, C, spatial... array ``v`` is dense channels-last (nwc,
    nhwc: C innermost, then W, H, N), dims of extent 1 at any stride."""
    step, order = v.itemsize, (1,) + tuple(range(v.ndim - 1, 1, -1)) + (0,)
    for d in order:
        if v.shape[d] != 1 and v.strides[d] != step:
            return False
        step *= v.shape[d]
    return v.ndim in (3, 4)
