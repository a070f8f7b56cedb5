package tiles

import (
	"bytes"
	"context"
	"database/sql"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
)

// WriteSample writes a small MBTiles file to path: zoom levels 0..maxZoom of the whole world, each
// tile a PNG of one colour with a darker border, stored TMS-flipped as the format wants. Tests and
// the end-to-end suite use it to prove the offline map without shipping a map.
func WriteSample(ctx context.Context, path string, maxZoom int) error {
	_ = os.Remove(path)
	d, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer d.Close()
	for _, q := range []string{
		"CREATE TABLE metadata (name TEXT, value TEXT)",
		"CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)",
		"CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)",
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	for k, v := range map[string]string{"name": "TankWatch sample", "format": "png", "minzoom": "0",
		"maxzoom": strconv.Itoa(maxZoom), "bounds": "-180,-85.0511,180,85.0511"} {
		if _, err := d.ExecContext(ctx, "INSERT INTO metadata VALUES (?, ?)", k, v); err != nil {
			return err
		}
	}
	for z := 0; z <= maxZoom; z++ {
		n := 1 << z
		for x := 0; x < n; x++ {
			for y := 0; y < n; y++ {
				b, err := sampleTile(uint8(40+z*50), uint8(120+x*20), uint8(200-y*20))
				if err != nil {
					return err
				}
				if _, err := d.ExecContext(ctx, "INSERT INTO tiles VALUES (?, ?, ?, ?)", z, x, TMSRow(z, y), b); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func sampleTile(r, g, b uint8) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 256, 256))
	fill, edge := color.RGBA{r, g, b, 255}, color.RGBA{r / 2, g / 2, b / 2, 255}
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			c := fill
			if x < 2 || y < 2 || x > 253 || y > 253 {
				c = edge
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}
