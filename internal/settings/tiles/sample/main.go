// Command sample writes a small MBTiles file (zoom 0–3) for trying or testing the offline map:
//
//	go run ./internal/settings/tiles/sample out.mbtiles
package main

import (
	"context"
	"fmt"
	"os"

	"tankwatch/internal/settings/tiles"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: sample <out.mbtiles>")
		os.Exit(2)
	}
	if err := tiles.WriteSample(context.Background(), os.Args[1], 3); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
