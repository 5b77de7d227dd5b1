package demoagent

import (
	"strings"
	"unicode"
)

// language is one the agent can write an example in.
type language struct {
	fence   string // the code fence's info string
	title   string // how the reply names it
	snippet string
}

// languages by the words that name them in a prompt.
var (
	langGo = language{"go", "Go", `package main

import "fmt"

func main() {
	for i, name := range []string{"Alice", "Bob"} {
		fmt.Printf("%d: hello, %s\n", i+1, name)
	}
}
`}
	langPython = language{"python", "Python", `def greet(name: str) -> str:
    return f"Hello, {name}!"


if __name__ == "__main__":
    for name in ("Alice", "Bob"):
        print(greet(name))
`}
	langJavaScript = language{"javascript", "JavaScript", "const greet = (name) => `Hello, ${name}!`;\n\nfor (const name of [\"Alice\", \"Bob\"]) {\n  console.log(greet(name));\n}\n"}
	langTypeScript = language{"typescript", "TypeScript", "interface Agent {\n  name: string;\n  busy: boolean;\n}\n\nfunction describe(agent: Agent): string {\n  return `${agent.name} is ${agent.busy ? \"busy\" : \"idle\"}`;\n}\n\nconsole.log(describe({ name: \"demo\", busy: false }));\n"}
	langRust       = language{"rust", "Rust", `fn main() {
    let names = ["Alice", "Bob"];
    for (i, name) in names.iter().enumerate() {
        println!("{}: hello, {}", i + 1, name);
    }
}
`}
	langBash = language{"bash", "Bash", `#!/usr/bin/env bash
set -euo pipefail

for name in Alice Bob; do
  echo "hello, ${name}"
done
`}
	langYAML = language{"yaml", "YAML", `server:
  host: localhost
  port: 8080
features:
  - search
  - history
`}
	langTOML = language{"toml", "TOML", `[server]
host = "localhost"
port = 8080

[features]
search = true
history = true
`}
	langJSON = language{"json", "JSON", `{
  "name": "demo",
  "tags": ["offline", "example"],
  "version": 1
}
`}
	langHTML = language{"html", "HTML", `<!doctype html>
<html lang="en">
  <head><title>Demo</title></head>
  <body>
    <h1>Hello from the demo agent</h1>
  </body>
</html>
`}
	langDockerfile = language{"dockerfile", "Dockerfile", `FROM golang:1.26 AS build
WORKDIR /src
COPY . .
RUN go build -o /out/app .

FROM gcr.io/distroless/base
COPY --from=build /out/app /app
ENTRYPOINT ["/app"]
`}
	langMarkdown = language{"markdown", "Markdown", `# Notes

- **bold** and *italic*
- a [link](https://example.com)

> a quote
`}
)

var languageWords = map[string]*language{
	"go": &langGo, "golang": &langGo,
	"python": &langPython, "py": &langPython,
	"javascript": &langJavaScript, "js": &langJavaScript, "node": &langJavaScript, "nodejs": &langJavaScript,
	"typescript": &langTypeScript, "ts": &langTypeScript,
	"rust": &langRust,
	"bash": &langBash, "shell": &langBash, "sh": &langBash, "zsh": &langBash,
	"yaml": &langYAML, "yml": &langYAML,
	"toml":       &langTOML,
	"json":       &langJSON,
	"html":       &langHTML,
	"dockerfile": &langDockerfile, "docker": &langDockerfile, "containerfile": &langDockerfile,
	"markdown": &langMarkdown, "md": &langMarkdown,
}

// detectLanguage returns the first language the text names, Go when it names none. The
// word "go" is also an English verb, so it only counts when no other language is named.
func detectLanguage(text string) language {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if l, ok := languageWords[w]; ok && w != "go" {
			return *l
		}
	}
	return langGo
}
