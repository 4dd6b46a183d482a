"""benchdnn's grammar: batch-file tokens, tags, attributes, problem descriptors.

Written from benchdnn's documentation (oneDNN's tests/benchdnn/doc/, in
particular knobs_attr.md) and the behaviour of tests/benchdnn/utils/parser.cpp;
no benchdnn code is reused.
"""
import re

from dnnl._core.enums import C, data_type


class ParseError(Exception):
    """A fatal parse error; ``code`` is the process exit status."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------ batch files
def tokenize(text):
    """Whitespace tokens of a batch file: ``#`` starts a comment (to the end
    of the line) at the start of a token; a token ending with ``\\`` is glued
    to the next one; a lone ``\\`` glues the next token to the previous."""
    out = []
    glue = False
    for line in text.splitlines():
        for tok in line.split():
            if tok.startswith("#"):
                break
            if tok == "\\":
                if out:
                    glue = True
                continue
            cont = tok.endswith("\\")
            if cont:
                tok = tok[:-1]
            if glue and out:
                out[-1] += tok
            else:
                out.append(tok)
            glue = cont
    return out


# ------------------------------------------------------------------ tags
def _is_abc(tag):
    return bool(tag) and re.fullmatch(r"([a-lA-L]|[0-9]+[a-l])+", tag) is not None


_SCHEMES = ("GOIdhw", "OIdhw", "NCdhw", "TNc", "LDNC", "LDigO")


def _from_scheme(tag):
    """Map a named tag (nchw, nChw16c, OIhw16i16o...) letter by letter."""
    letters = set(re.sub(r"[0-9]", "", tag))
    for scheme in _SCHEMES:
        low = scheme.lower()
        if all(c.lower() in low for c in letters):
            # every uppercase letter of the scheme must be present (as either case)
            need = [c for c in scheme if c.isupper()]
            if not all(c in letters or c.lower() in letters for c in need):
                continue
            present = [c for c in low if c in {x.lower() for x in letters}]
            pos = {c: i for i, c in enumerate(present)}
            res = ""
            for c in tag:
                if c.isdigit():
                    res += c
                elif c.isupper():
                    res += chr(ord("A") + pos[c.lower()])
                else:
                    res += chr(ord("a") + pos[c])
            return res
    return None


def normalize_tag(tag, ndims=-1):
    """A tag for a problem of ``ndims`` dims: meta tags (with ``x``) are
    expanded and trimmed; named tags are mapped to abc form; ``any`` and
    ``undef`` are kept. ``ndims=-1``: a meta tag is expanded to the fewest
    dims it needs (``axb`` -> ``acb``), which is how benchdnn checks tags when
    they are parsed. Returns None when the tag cannot be used."""
    if tag in ("any", "undef") or ndims == 0:
        return tag
    if tag == "x":
        return "a"
    if "x" in tag:
        # x starts after the highest lowercase letter b..l present (else at c)
        start = "c"
        for c in "lkjihgfedcb":
            if c in tag:
                start = chr(ord(c) + 1)
                break
        n = ord(start) - ord("a") + 1 if ndims == -1 else ndims
        fill = "".join(chr(ord(start) + i) for i in range(n - (ord(start) - ord("a"))))
        tag = tag.replace("x", fill, 1)
        # drop every dim >= n (a block size in front of a lowercase one too)
        parts = re.findall(r"[0-9]+[a-zA-Z]|[a-zA-Z]", tag)
        return "".join(p for p in parts if ord(p[-1].lower()) - ord("a") < n)
    if _is_abc(tag):
        return tag
    return _from_scheme(tag)


# ------------------------------------------------------------------ values
def parse_bool(value):
    v = value.strip().lower()
    if v in ("true", "1"):
        return True
    if v in ("false", "0"):
        return False
    raise ParseError("invalid boolean value %r" % value, 2)


def split_plus(text):
    """Split on ``+`` except an exponent sign (``1e+5``)."""
    parts, cur = [], ""
    for i, c in enumerate(text):
        if c == "+" and not (cur and cur[-1] in "eE" and re.search(r"[0-9.]$", cur[:-1])):
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


POLICY_MASK = {"common": 0, "per_dim_0": 1, "per_oc": 2, "per_dim_1": 2, "per_ocic": 3,
               "per_dim_01": 3, "per_dim_2": 4, "per_dim_3": 8, "per_tensor": None,
               "host_scalar": 0}
#: data types a benchdnn option may name: every numeric dnnl_data_type_t
DT_NAMES = tuple(n for n in data_type.__members__ if n not in ("undef", "boolean", "max"))


def policy_mask(policy, ndims):
    """The quantization mask of a policy name (or decimal mask)."""
    p = policy.lower()
    if p in POLICY_MASK:
        m = POLICY_MASK[p]
        return (1 << ndims) - 1 if m is None else m
    if p.isdigit():
        return int(p)
    raise ParseError("unknown policy %r" % policy)


ARG_NAMES = {name: C["DNNL_ARG_" + macro] for name, macro in (
    ("src", "SRC"), ("src0", "SRC_0"), ("src1", "SRC_1"), ("src2", "SRC_2"), ("dst", "DST"),
    ("wei", "WEIGHTS"), ("diff_src", "DIFF_SRC"), ("diff_dst", "DIFF_DST"),
    ("diff_wei", "DIFF_WEIGHTS"))}


def arg_value(name):
    n = name.lower()
    if n in ARG_NAMES:
        return ARG_NAMES[n]
    m = re.fullmatch(r"msrc([0-9]+)", n)
    if m:
        return C["DNNL_ARG_MULTIPLE_SRC"] + int(m.group(1))
    raise ParseError("unknown argument %r" % name)


class Quant:
    """One ``ARG:POLICY[:VALUE[:DT[:GROUPS]]]`` item."""

    __slots__ = ("arg", "arg_name", "policy", "value", "dt", "groups", "text")

    def __init__(self, text, default_dt, integer):
        self.text = text
        f = text.split(":")
        if len(f) < 2:
            raise ParseError("bad quantization item %r" % text)
        self.arg_name = f[0]
        self.arg = arg_value(f[0])
        self.policy = f[1].lower()
        if self.policy not in POLICY_MASK and not self.policy.isdigit() \
                and self.policy not in ("mx", "dynamic_fp"):
            raise ParseError("unknown policy %r" % f[1])
        single = self.policy in ("common", "host_scalar") or self.policy == "0"
        rest = f[2:]
        self.value = None
        if single and rest and rest[0] not in DT_NAMES:
            v = rest.pop(0)
            try:
                self.value = int(v) if integer else float(v)
            except ValueError:
                raise ParseError("bad value %r in %r" % (v, text))
            if not integer and self.value < 0:
                raise ParseError("scales must be >= 0: %r" % text)
        if self.value is None:
            self.value = 0 if integer else 1.0
        self.dt = rest.pop(0) if rest else default_dt
        if self.dt not in DT_NAMES:
            raise ParseError("unknown data type %r in %r" % (self.dt, text))
        self.groups = ()
        if rest:
            try:
                self.groups = tuple(int(g) for g in rest.pop(0).split("x"))
            except ValueError:
                raise ParseError("bad groups in %r" % text)

    def is_single(self):
        return self.policy in ("common", "host_scalar") or self.policy == "0"


def parse_quant(text, integer):
    """Items of an ``--attr-scales`` / ``--attr-zero-points`` value."""
    if not text:
        return ()
    return tuple(Quant(t, "s32" if integer else "f32", integer) for t in split_plus(text))


ELTWISE = ("abs", "clip", "clip_v2", "clip_v2_dst", "elu", "elu_dst", "exp", "exp_dst",
           "gelu_erf", "gelu_tanh", "hardsigmoid", "hardswish", "linear", "log",
           "logistic", "logistic_dst", "mish", "pow", "relu", "relu_dst", "round",
           "sqrt", "sqrt_dst", "square", "soft_relu", "srelu", "swish", "tanh",
           "tanh_dst")
BINARY = ("add", "sub", "mul", "div", "max", "min", "eq", "ne", "ge", "gt", "le", "lt",
          "select")


class PostOp:
    __slots__ = ("kind", "alg", "alpha", "beta", "scale", "zero_point", "dt", "policy",
                 "tag", "text")

    def __init__(self, text):
        self.text = text
        f = text.split(":")
        name = f[0].lower()
        self.alpha = self.beta = 0.0
        self.scale, self.zero_point, self.dt = 1.0, 0, None
        self.policy, self.tag = "common", "any"
        try:
            if name == "sum":
                self.kind = self.alg = "sum"
                if len(f) > 1:
                    self.scale = float(f[1])
                if len(f) > 2:
                    self.zero_point = int(f[2])
                if len(f) > 3:
                    self.dt = f[3]
            elif name.replace("eltwise_", "") in ELTWISE:
                self.kind = "eltwise"
                self.alg = name.replace("eltwise_", "")
                if self.alg == "srelu":
                    self.alg = "soft_relu"
                if len(f) > 1:
                    self.alpha = float(f[1])
                if len(f) > 2:
                    self.beta = float(f[2])
            elif name.replace("binary_", "") in BINARY:
                self.kind = "binary"
                self.alg = name.replace("binary_", "")
                if len(f) < 2 or f[1] not in DT_NAMES:
                    raise ParseError("binary post-op %r needs a data type" % text)
                self.dt = f[1]
                if len(f) > 2:
                    self.policy = f[2].lower()
                if len(f) > 3:
                    self.tag = f[3]
            elif name == "prelu":
                self.kind = self.alg = "prelu"
                if len(f) > 1:
                    self.policy = f[1].lower()
            elif name == "dw":
                self.kind = self.alg = "dw"
            else:
                raise ParseError("unknown post-op %r" % text)
        except ValueError:
            raise ParseError("bad post-op %r" % text)


def parse_post_ops(text):
    if not text:
        return ()
    return tuple(PostOp(t) for t in split_plus(text))


def split_vector(value):
    """A vector option's values (empty = [default], i.e. [''])."""
    return value.split(",") if value != "" else [""]
