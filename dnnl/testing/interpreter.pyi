import subprocess
from typing import Any, Mapping, Sequence

PACKAGE_PARENT: str

def environment(env: Mapping[str, str] | None = ...) -> dict[str, str]: ...
def run(args: Sequence[str], env: Mapping[str, str] | None = ...,
        cwd: str | None = ..., **kwargs: Any) -> subprocess.CompletedProcess[Any]: ...
