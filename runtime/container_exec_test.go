package runtime

import (
	"reflect"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// The agent's tag goes into the container of a docker exec, whatever options come before
// or after exec; any other command is left as it is.
func TestAgentArgsPassTheTagIntoDockerExec(t *testing.T) {
	tag := []string{"-e", ProcessTagEnv}
	cases := []struct {
		path      string
		args      []string
		want      []string // nil: unchanged
		container string
	}{
		{"/usr/bin/docker", []string{"exec", "-i", "box", "agent", "-e", "x"},
			[]string{"exec", "-e", ProcessTagEnv, "-i", "box", "agent", "-e", "x"}, "box"},
		{"docker", []string{"exec", "-i", "-w", "/work", "-e", "TOKEN", "--env=A=1", "-u", "me", "box", "agent"},
			append(append([]string{"exec"}, tag...), "-i", "-w", "/work", "-e", "TOKEN", "--env=A=1", "-u", "me", "box", "agent"), "box"},
		{"docker", []string{"-H", "tcp://h:2375", "--context=x", "container", "exec", "-ie", "A", "box", "agent"},
			append(append([]string{"-H", "tcp://h:2375", "--context=x", "container", "exec"}, tag...), "-ie", "A", "box", "agent"), "box"},
		{"docker", []string{"--workdir", "/w", "exec", "box"}, nil, ""},     // not a global option
		{"docker", []string{"run", "-i", "--rm", "img", "agent"}, nil, ""},  // not an exec
		{"docker", []string{"exec", "-i"}, nil, ""},                         // no container
		{"/usr/bin/sbx", []string{"exec", "-i", "box", "agent"}, nil, ""},   // not docker
		{"/opt/dockerish", []string{"exec", "-i", "box", "agent"}, nil, ""}, // not docker
	}
	for _, c := range cases {
		a := config.Agent{CommandPath: c.path, Args: c.args}
		got := agentArgs(a)
		want := c.want
		if want == nil {
			want = c.args
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %q: %q, want %q", c.path, c.args, got, want)
		}
		d, ok := dockerExecOf(c.path, c.args)
		if ok != (c.container != "") || d.container != c.container {
			t.Errorf("%s %q: container %q (%v), want %q", c.path, c.args, d.container, ok, c.container)
		}
	}
}
