package trend

import "tankwatch/internal/platform/httpx"

func timeOf(ms int64) httpx.Time { return httpx.Time(ms) }
