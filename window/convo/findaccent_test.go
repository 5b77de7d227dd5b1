package convo

import "testing"

// Find ignores accents letter by letter: an unaccented letter of the query finds the letter
// with any accent; an accented one only itself. Case works as before.
func TestQueryIgnoresAccents(t *testing.T) {
	for _, c := range []struct {
		query, text string
		at, end     int
	}{
		{"ete", "un été chaud", 3, 8},
		{"ete", "UN ÉTÉ", 3, 8},
		{"Ete", "un Été", 3, 8},
		{"Ete", "un été", -1, -1},
		{"été", "un ete puis été", 12, 17},
		{"été", "un ete", -1, -1},
		{"naive", "naïve", 0, 6},
		{"cafe", "CAFÉ!", 0, 5},
		{"o", "ø", -1, -1},
		{"zz", "", -1, -1},
	} {
		q := NewQuery(c.query)
		if a, e := q.Span(c.text, 0); a != c.at || e != c.end {
			t.Errorf("%q in %q: %d, %d, want %d, %d", c.query, c.text, a, e, c.at, c.end)
		}
	}
	q := NewQuery("ete")
	if n := testing.AllocsPerRun(100, func() { q.Span("la plage, un été très chaud", 0) }); n != 0 {
		t.Errorf("Span allocates %v times", n)
	}
}
