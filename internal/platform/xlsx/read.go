package xlsx

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/platform/httpx"
)

// ReadUpload reads the uploaded workbook (the request body, at most maxBytes) and returns the cells of
// its first sheet. Its refusals are the caller's texts: <texts>.importTooLarge (with the limit in MiB),
// <texts>.importEmpty and <texts>.importNotXlsx, so each import names what it expected.
func ReadUpload(w http.ResponseWriter, r *http.Request, maxBytes int64, texts string) ([][]string, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, httpx.Biz(texts+".importTooLarge", maxBytes>>20)
		}
		return nil, err
	}
	if len(body) == 0 {
		return nil, httpx.Biz(texts + ".importEmpty")
	}
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		return nil, httpx.Biz(texts + ".importNotXlsx")
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, httpx.Biz(texts + ".importEmpty")
	}
	cells, err := f.GetRows(sheets[0])
	if err != nil {
		return nil, httpx.Biz(texts + ".importNotXlsx")
	}
	return cells, nil
}
