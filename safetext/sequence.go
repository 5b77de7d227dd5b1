package safetext

// The one scanner of escape sequences: given the index just after an ESC or a C1 control,
// each function returns the index just after the sequence it introduces.

// skipEscape returns the index just after the escape sequence whose ESC is right before i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, i+1)
	case c >= 0x20 && c <= 0x2f:
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e:
		return i + 1
	}
	return i
}

// skipC1 handles a C1 control r that ended right before i: the 8-bit forms of CSI, OSC, DCS,
// SOS, PM and APC take their sequence with them; the others go alone.
func skipC1(s string, i int, r rune) int {
	switch r {
	case 0x9b:
		return skipCSI(s, i)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return skipString(s, i)
	}
	return i
}

// skipCSI skips a control sequence's parameter and intermediate bytes and its final byte.
// Anything else ends the sequence there and is handled on its own.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips the body of an OSC, DCS, SOS, PM or APC string and its terminator.
func skipString(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case 0x07, 0x18, 0x1a: // BEL ends an OSC in practice; CAN and SUB abort
			return i + 1
		case 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // a new sequence starts: it ends this one
		case '\n':
			return i
		case 0xc2:
			if i+1 < len(s) && s[i+1] == 0x9c { // ST in its 8-bit form, as UTF-8
				return i + 2
			}
		}
		i++
	}
	return i
}
