package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"git.rickub.com/bots-garden/sidekicks/demoagent"
)

// runDemoAgent runs the built-in ACP demo agent on the process's stdin and stdout.
func runDemoAgent(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo-agent", demoAgentSynopsis, stderr)
	name := fs.String("name", "demo", "how the agent introduces itself")
	delay := fs.Duration("delay", demoagent.DefaultWordDelay, "pause between streamed words (0: as fast as possible)")
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	if *delay < 0 {
		fmt.Fprintf(stderr, "sidekicks demo-agent: --delay must not be negative, got %s\n", *delay)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := demoagent.Run(ctx, os.Stdin, os.Stdout, demoagent.Options{
		Name:      *name,
		WordDelay: *delay,
		Log:       stderr,
	})
	if err != nil {
		fmt.Fprintf(stderr, "sidekicks demo-agent: %v\n", err)
		return 1
	}
	return 0
}
