// Package perf holds measurements against a running `tankwatch serve` (started by the scripts in
// scripts/); its tests skip unless the script sets their environment. Figures go to
// docs/PERFORMANCE.md with the command that produced them.
package perf
