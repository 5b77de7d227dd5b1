package testagents

import "io"

// MarkdownAnswer is what the markdown agent replies to any prompt: a heading, bold, inline
// code, a table and a list, sent in pieces that cut its lines and its markup.
const MarkdownAnswer = "# Summary\n\nThe **Python** version uses `asyncio` for the loop.\n\n" +
	"| language | runtime |\n|---|---|\n| Python | CPython 3.13 |\n| Go | gc 1.26 |\n\n" +
	"- first point\n- second point\n"

// The markdown agent answers every prompt with MarkdownAnswer, in chunks of 7 bytes.
func init() { modes["markdown"] = serveMarkdown }

func serveMarkdown(in io.Reader, out, _ io.Writer) int {
	p := newPeer("markdown", in, out)
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			for i := 0; i < len(MarkdownAnswer); i += 7 {
				p.say(m.Params.SessionID, MarkdownAnswer[i:min(i+7, len(MarkdownAnswer))])
			}
			p.endTurn(m.ID)
		}
	}
}
