from bot.process.ratelimit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_flood_gets_one_warning_then_silence_then_recovers() -> None:
    clock = Clock()
    rl = RateLimiter(rate=1.0, burst=3, clock=clock)
    assert [rl.check("t", "u") for _ in range(6)] == ["ok", "ok", "ok", "warn", "drop", "drop"]
    assert rl.check("t", "other") == "ok"  # nobody else is slowed down
    clock.now += 1.0
    assert rl.check("t", "u") == "ok"
    assert rl.check("t", "u") == "warn"  # a new flood is announced once again


def test_off_when_rate_is_zero() -> None:
    rl = RateLimiter(rate=0, burst=0, clock=Clock())
    assert all(rl.check("t", "u") == "ok" for _ in range(100))


def test_memory_is_bounded() -> None:
    clock = Clock()
    rl = RateLimiter(rate=1.0, burst=2, clock=clock, max_users=10)
    for i in range(100):
        rl.check("t", str(i))
    assert len(rl._buckets) <= 10
