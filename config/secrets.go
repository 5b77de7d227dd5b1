package config

import "io/fs"

// This file keeps secrets at rest: the modes of the files Sidekicks writes in the user's
// folder. The configuration's agents often carry API keys in their env, and the
// preferences name the files the user works on.

const (
	// privateFile is the mode of the files Sidekicks creates for the user: the default
	// configuration and the preferences.
	privateFile fs.FileMode = 0o600
	// privateFolder is the mode of the folders it creates for them.
	privateFolder fs.FileMode = 0o700
)
