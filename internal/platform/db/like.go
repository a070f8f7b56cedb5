package db

import "strings"

// likeEscapeChar escapes LIKE wildcards. Not the backslash: PostgreSQL's default LIKE escape is the
// backslash while SQLite has none, and a backslash in a string literal means different things to the
// two; an explicit ESCAPE '!' means the same on both.
const likeEscapeChar = "!"

var likeEscaper = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")

// LikeEscape makes s match itself literally in a LIKE pattern written with the ESCAPE clause of
// Contains: "%" and "_" typed in a list filter are characters, not wildcards.
func LikeEscape(s string) string { return likeEscaper.Replace(s) }

// Contains is the "column contains v" filter of every list, as the query and argument of a Where:
//
//	sel.Where(db.Contains("c.driver_name", v))
//
// v matches literally (its % and _ are not wildcards). expr is a column or expression written by the
// caller, never user input.
func Contains(expr, v string) (string, any) {
	return expr + " LIKE ? ESCAPE '" + likeEscapeChar + "'", "%" + LikeEscape(v) + "%"
}
