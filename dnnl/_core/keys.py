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
        tok = remember(_tokens, value, object(), _TOKENS_MAX)
    return tok


def remember(table, key, value, limit):
    """``table[key] = value``, returned; a table that holds ``limit`` entries
    forgets them all first. For the package's small memo tables: the next
    lookups fill a cleared table again, which costs less than keeping an LRU
    order on every hit. No lock: the clear and the fill are one dict
    operation each (atomic with or without a GIL); threads racing fill one
    value, and a race can only forget entries (docs/internals/architecture.md,
    "Shared state and threads")."""
    if len(table) >= limit:
        table.clear()
    return table.setdefault(key, value)
