level: str | None
