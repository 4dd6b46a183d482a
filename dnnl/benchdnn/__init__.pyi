from typing import Sequence, TextIO

def main(argv: Sequence[str] | None = ..., out: TextIO | None = ...,
         err: TextIO | None = ...) -> int: ...
