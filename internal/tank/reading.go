package tank

// Source says which volume a reading counts.
type Source uint8

const (
	SourceNone  Source = 0 // no volume (no table, no probe volume)
	SourceStrap Source = 1 // the platform's strapping table applied to the level (the one that counts)
	SourceProbe Source = 2 // the volume the probe reported itself (0xE2): only where no table exists
	SourceGauge Source = 3 // a station gauge's own volume (ground tanks without a table)
)

// Reading is one compartment's probe reading made a volume: the raw reading kept beside what was
// computed from it (stored in level_readings).
type Reading struct {
	Compartment uint8   // 1–8
	LevelMM     uint16  // raw: liquid height, mm, as the probe reported it
	ProbeL      uint32  // raw: the probe's own volume, litres
	TempDeci    int16   // raw: 0.1 °C
	VolumeL     float64 // Vt, litres: through the strapping table, else the probe's
	Source      Source
	V20L        float64 // litres at 20 °C (ToV20); = VolumeL when not converted
	MassKg      float64 // 0 when not converted
}
