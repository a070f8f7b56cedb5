package httpx

import "tankwatch/internal/platform/i18n"

// Field marks a field name for translation inside a message.
func Field(name string) i18n.Field { return i18n.Field(name) }
