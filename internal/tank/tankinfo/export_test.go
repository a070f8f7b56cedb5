package tankinfo

import (
	"errors"

	"tankwatch/internal/platform/httpx"
)

func bizKey(err error) string {
	var he *httpx.Error
	if errors.As(err, &he) {
		return he.Key
	}
	return ""
}
