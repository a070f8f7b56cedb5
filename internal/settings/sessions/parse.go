package sessions

import (
	"strconv"

	"tankwatch/internal/platform/httpx"
)

func atoi(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, httpx.Invalid("pageNum")
	}
	return n, nil
}

func atoi64(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, httpx.Invalid("groupId")
	}
	return n, nil
}
