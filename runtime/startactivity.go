package runtime

import "time"

// StderrActivity says when the process last wrote on its stderr (zero when it never did)
// and the last line it wrote: the sign of life of an agent slow to start (a container
// being created, a model loading), while it has not answered initialize yet.
func (p *Process) StderrActivity() (time.Time, string) {
	at := p.errAt.Load()
	if at == 0 {
		return time.Time{}, ""
	}
	var last string
	if tail := p.errs.Tail(); len(tail) > 0 {
		last = tail[len(tail)-1]
	}
	return time.Unix(0, at), last
}
