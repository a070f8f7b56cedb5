// Package load is the load records of waybills (spec route manager/loadRecord, menu 04-25): what the
// depot shipped per compartment — observed volume Vt, temperature, density at 20 °C, the lead-seal
// number — with V20 and mass computed by tank.VCF20 (DOMAIN.md §2), entered, imported from the
// depot's loading tickets (xlsx) or sent by the depot's system; the load report over a period; and
// the seal check at unsealing (DOMAIN.md §3). A record moves its waybill to LOADED (waybill.Advance,
// cause record) in the same transaction; a seal check moves it to UNSEALED or marks a difference.
package load

import (
	"math"
	"strings"

	"tankwatch/internal/tank"
)

// Page permission codes (internal/org/menu.json).
const (
	CodePage      = "04-25"
	CodeEdit      = "04-25-01"
	CodeImport    = "04-25-02"
	CodeExport    = "04-25-03"
	CodeDelete    = "04-25-04"
	CodeSealCheck = "04-25-05"
)

// Limits of an item's fields.
const (
	MaxCompartments = 8
	MaxVtL          = 60_000 // litres in one compartment (the largest road tanker compartments hold ~15 m³)
	MinTempC        = -40
	MaxTempC        = 80
	MaxSealLen      = 32
	MaxTicketLen    = 64
	MaxRemarkLen    = 200
)

// Product is what a computation needs of a products row.
type Product struct {
	ID        int64    `bun:"id" json:"id"`
	GroupID   int64    `bun:"group_id" json:"groupId"`
	GroupPath string   `bun:"group_path" json:"-"`
	Code      string   `bun:"code" json:"code"`
	Name      string   `bun:"name" json:"name"`
	Product   int      `bun:"product" json:"product"`
	Family    int      `bun:"family" json:"family"`
	Density20 float64  `bun:"density20" json:"density20"`
	K0        *float64 `bun:"k0" json:"k0"`
	K1        *float64 `bun:"k1" json:"k1"`
}

// family is the product's tank.Family; a catalogue entry without one (0) takes its product code's.
func (p Product) family() tank.Family {
	if p.Family != 0 {
		return tank.Family(p.Family)
	}
	return tank.ProductFamily(p.Product)
}

// Figures are one compartment's computed figures.
type Figures struct {
	Density20 float64 // the density used (kg/m³ at 20 °C)
	VCF20     float64 // volume correction factor to 20 °C, 6 decimals
	V20L      float64 // litres at 20 °C, 1 decimal
	MassT     float64 // tonnes in air, 3 decimals
}

// Compute brings an observed volume vt (L) at temp (°C) of product p to 20 °C: the density is rho20
// when given (> 0), else the product's, else the product code's default; VCF20 is tank.VCF20 with
// the product's family, or tank.VCF20K with the product's own K0/K1 when both are set; V20 = Vt·VCF20;
// mass in air m = V20·(ρ20 − 1.1)/10⁶ tonnes (0 without a valid density).
func Compute(p Product, vt, temp, rho20 float64) Figures {
	rho := rho20
	if rho <= 0 {
		rho = p.Density20
	}
	if rho <= 0 {
		rho = tank.DefaultDensity20(p.Product)
	}
	var vcf float64
	if p.K0 != nil && p.K1 != nil {
		vcf = tank.VCF20K(*p.K0, *p.K1, rho, temp)
	} else {
		vcf = tank.VCF20(p.family(), rho, temp)
	}
	vcf = round(vcf, 6)
	v20 := round(vt*vcf, 1)
	mass := 0.0
	if rho >= tank.MinDensity20 && rho <= tank.MaxDensity20 {
		mass = round(v20*(rho-1.1)/1e6, 3)
	}
	return Figures{Density20: rho, VCF20: vcf, V20L: v20, MassT: mass}
}

func round(v float64, places int) float64 {
	f := math.Pow(10, float64(places))
	return math.Round(v*f) / f
}

// ItemInput is one compartment of a load record.
type ItemInput struct {
	Compartment int     `json:"compartment"`
	ProductID   int64   `json:"productId"` // 0: the waybill compartment's product
	VtL         float64 `json:"vtL"`
	TempC       float64 `json:"tempC"`
	Density20   float64 `json:"density20"` // 0: the product's
	SealNo      string  `json:"sealNo"`
}

// RecordInput is a load record: the waybill, the loading ticket and its compartments.
type RecordInput struct {
	WaybillID int64       `json:"waybillId"`
	TicketNo  string      `json:"ticketNo"`
	LoadedAt  int64       `json:"loadedAt"` // Unix ms; 0 = now
	Items     []ItemInput `json:"items"`
	Remark    string      `json:"remark"`
}

// ItemError is a validation failure of one item: the catalogue key and its arguments.
type ItemError struct {
	Key  string
	Args []any
}

// cleanSeal normalises a seal number: trimmed, upper case (seal numbers are printed in capitals; a
// lower-case entry is the same seal).
func cleanSeal(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
