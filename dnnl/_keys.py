"""Cache keys: one token object per distinct value.

A primitive-cache key is hashed and compared on every lookup. A token, a
plain object standing for one value, hashes and compares in C by identity,
so each keyed type (descriptor, attribute, settings) turns its value into a
token once and keeps it until the value changes: equal values, one token.
"""
_tokens = {}            # value -> its token
_TOKENS_MAX = 1 << 16   # then forget them all: a value's new token only misses


def token(value):
    """The token of ``value`` (hashable; TypeError otherwise)."""
    tok = _tokens.get(value)
    if tok is None:
        if len(_tokens) >= _TOKENS_MAX:
            _tokens.clear()
        tok = _tokens.setdefault(value, object())
    return tok
