package geo

import "math"

// GCJ-02 is the obfuscated datum every Chinese web map (Gaode included) expects; terminals report
// WGS-84. The transform is the published one on the Krasovsky ellipsoid.
const (
	gcjA  = 6378245.0
	gcjEE = 0.00669342162296594323
)

// outOfChina is the rectangle outside which GCJ-02 equals WGS-84.
func outOfChina(lng, lat float64) bool {
	return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271
}

// WGS84ToGCJ02 converts a WGS-84 point to GCJ-02 (identity outside China).
func WGS84ToGCJ02(lng, lat float64) (float64, float64) {
	if outOfChina(lng, lat) {
		return lng, lat
	}
	dLat := gcjLat(lng-105, lat-35)
	dLng := gcjLng(lng-105, lat-35)
	rad := lat / 180 * math.Pi
	magic := math.Sin(rad)
	magic = 1 - gcjEE*magic*magic
	sq := math.Sqrt(magic)
	dLat = dLat * 180 / ((gcjA * (1 - gcjEE)) / (magic * sq) * math.Pi)
	dLng = dLng * 180 / (gcjA / sq * math.Cos(rad) * math.Pi)
	return lng + dLng, lat + dLat
}

func gcjLat(x, y float64) float64 {
	r := -100 + 2*x + 3*y + 0.2*y*y + 0.1*x*y + 0.2*math.Sqrt(math.Abs(x))
	r += (20*math.Sin(6*x*math.Pi) + 20*math.Sin(2*x*math.Pi)) * 2 / 3
	r += (20*math.Sin(y*math.Pi) + 40*math.Sin(y/3*math.Pi)) * 2 / 3
	r += (160*math.Sin(y/12*math.Pi) + 320*math.Sin(y*math.Pi/30)) * 2 / 3
	return r
}

func gcjLng(x, y float64) float64 {
	r := 300 + x + 2*y + 0.1*x*x + 0.1*x*y + 0.1*math.Sqrt(math.Abs(x))
	r += (20*math.Sin(6*x*math.Pi) + 20*math.Sin(2*x*math.Pi)) * 2 / 3
	r += (20*math.Sin(x*math.Pi) + 40*math.Sin(x/3*math.Pi)) * 2 / 3
	r += (150*math.Sin(x/12*math.Pi) + 300*math.Sin(x/30*math.Pi)) * 2 / 3
	return r
}
