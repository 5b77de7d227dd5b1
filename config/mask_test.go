package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestMaskSecrets(t *testing.T) {
	for _, tt := range []struct {
		name string
		argv []string
		want []string
	}{
		{"nothing secret", []string{"claude-code-acp", "--model", "opus", "-v"}, []string{"claude-code-acp", "--model", "opus", "-v"}},
		{"--api-key X", []string{"agent", "--api-key", "sk-1", "--fast"}, []string{"agent", "--api-key", Masked, "--fast"}},
		{"--api-key=X", []string{"agent", "--api-key=sk-1"}, []string{"agent", "--api-key=" + Masked}},
		{"--token X", []string{"agent", "--token", "ghp_1"}, []string{"agent", "--token", Masked}},
		{"-token=X", []string{"agent", "-token=ghp_1"}, []string{"agent", "-token=" + Masked}},
		{"--password X", []string{"agent", "--password", "hunter2"}, []string{"agent", "--password", Masked}},
		{"--client-secret X", []string{"agent", "--client-secret", "s"}, []string{"agent", "--client-secret", Masked}},
		{"--DB_PASSWD=X", []string{"agent", "--DB_PASSWD=x"}, []string{"agent", "--DB_PASSWD=" + Masked}},
		{"a flag after a secret flag is kept", []string{"agent", "--token", "--verbose"}, []string{"agent", "--token", "--verbose"}},
		{"a secret flag last", []string{"agent", "--api-key"}, []string{"agent", "--api-key"}},
		{"an empty value is kept", []string{"agent", "--api-key=", "--token", ""}, []string{"agent", "--api-key=", "--token", ""}},
		{"-e NAME=X", []string{"docker", "exec", "-i", "-e", "OPENAI_API_KEY=sk-1", "-e", "MODEL=gpt", "box", "agent"},
			[]string{"docker", "exec", "-i", "-e", "OPENAI_API_KEY=" + Masked, "-e", "MODEL=gpt", "box", "agent"}},
		{"--env NAME=X", []string{"docker", "run", "--env", "GITHUB_TOKEN=ghp_1", "img"}, []string{"docker", "run", "--env", "GITHUB_TOKEN=" + Masked, "img"}},
		{"--env=NAME=X", []string{"docker", "run", "--env=MY_SECRET=s", "--env=LANG=C"}, []string{"docker", "run", "--env=MY_SECRET=" + Masked, "--env=LANG=C"}},
		{"lower-case names", []string{"env", "db_password=x", "api_key=y", "agent"}, []string{"env", "db_password=" + Masked, "api_key=" + Masked, "agent"}},
		{"-e NAME alone passes the user's value", []string{"docker", "exec", "-e", "API_KEY", "box"}, []string{"docker", "exec", "-e", "API_KEY", "box"}},
		{"not a variable's name", []string{"agent", "https://x/?api_key=1", "a b KEY=c"}, []string{"agent", "https://x/?api_key=1", "a b KEY=c"}},
		{"a value with =", []string{"agent", "--token=a=b", "SECRET=c=d"}, []string{"agent", "--token=" + Masked, "SECRET=" + Masked}},
		{"no arguments", nil, []string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := append([]string(nil), tt.argv...)
			got := MaskSecrets(tt.argv)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("MaskSecrets(%q) = %q; want %q", tt.argv, got, tt.want)
			}
			if !reflect.DeepEqual(tt.argv, before) {
				t.Errorf("MaskSecrets changed its argument: %q, was %q", tt.argv, before)
			}
		})
	}
}

// CommandLine is how every log line and view shows a command: masked, then quoted as a
// shell would read it back.
func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"agent", "--api-key", "sk-1", "-e", "A_TOKEN=t t"}, "agent --api-key " + Masked + " -e A_TOKEN=" + Masked},
		{[]string{"sbx", "rm", "--token=ghp_1", "it's"}, "sbx rm --token=" + Masked + ` 'it'\''s'`},
		{[]string{"sh", "-c", "echo $HOME", ""}, `sh -c 'echo $HOME' ''`},
	} {
		if got := CommandLine(tc.argv); got != tc.want {
			t.Errorf("CommandLine(%q) = %q; want %q", tc.argv, got, tc.want)
		}
		if strings.Contains(CommandLine(tc.argv), "sk-1") || strings.Contains(CommandLine(tc.argv), "ghp_1") {
			t.Errorf("a secret is shown for %q", tc.argv)
		}
	}
}
