"""A tournament's progress bar."""

from __future__ import annotations

import time
from typing import Any, TextIO


class Progress:
    """A progress bar: tqdm when it is installed, else a plain status line."""

    def __init__(self, total: int, done: int, enabled: bool, out: TextIO) -> None:
        self.total, self.done, self.out = total, done, out
        self.start = self.shown = time.perf_counter()
        self.first = done
        self.bar: Any = None
        self.enabled = enabled
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self.bar = tqdm(
                    total=total, initial=done, unit="deal", file=out, dynamic_ncols=True
                )

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(n)
            return
        now = time.perf_counter()
        if now - self.shown < 0.5 and self.done < self.total:
            return
        self.shown = now
        elapsed = now - self.start
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        print(
            f"\r{self.done}/{self.total} deals, {rate:.1f}/s, {left:.0f} s left ",
            end="",
            file=self.out,
            flush=True,
        )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(file=self.out)
