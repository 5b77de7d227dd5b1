package config

import "git.rickub.com/bots-garden/sidekicks/i18n"

// message is a text of the configuration's messages: each has an English and a French
// version in messagesEN and messagesFR (catalogue_en.go, catalogue_fr.go). A text with
// verbs (%s, %d) is given its arguments; a value from the file is quoted (q) or made
// printable before it is given.
type message int

// The messages, by the file that uses them.
const (
	mNone message = iota // no message: what a missing key of a map of messages gives

	// messages.go: how a diagnostic, a quoted value, a list and the summary are written.
	mLine
	mKey
	mWarning
	mQuoted
	mOr
	mConfigOK
	mOneError
	mErrors
	mOneWarning
	mWarnings

	// load.go
	mNoFile
	mFileDenied
	mIsFolder
	mTooLarge
	mUnreadable
	mEmpty
	mNotMapping
	mMoreProblems

	// decode.go
	mDurationTooLong

	// messages_schema.go: the kinds of values, then the violations of the schema.
	mKindText
	mKindInteger
	mKindNumber
	mKindBoolean
	mKindList
	mKindMapping
	mKindEmpty
	mAgentsList
	mChannelsList
	mAgentMapping
	mChannelMapping
	mMustBe
	mTextNotEmpty
	mTextInQuotes
	mText
	mInteger
	mListNotText
	mVersionNotText
	mList
	mMapping
	mNotAbsolute
	mNotValid
	mBadName
	mBadDuration
	mMissingKey
	mMissingVersion
	mMissingAgents
	mMissingType
	mMissingContainer
	mMissingSandbox
	mUnknownKeyNear
	mUnknownKey
	mUnknownKeyKnown
	mKeyNotAllowed
	mKeyNotForType

	// violations.go
	mNoSchemaCheck
	mBadVersion
	mNotAllowed
	mMustNotBeEmpty
	mTooLong
	mMinimum
	mEmptyList
	mListedTwice
	mBadEnvName
	mInvalidValue
	mThisValue
	mThisList
	mThisMapping

	// rules.go
	mSameAgentName
	mSameChannelName
	mNoSuchAgent
	mDidYouMean
	mAddItFirst
	mTheAgentsAre
	mPathNotFound
	mNotInPath

	// structure.go
	mTooManyAliases
	mAliasLoop
	mKeyNotWord
	mMergeKey
	mDuplicateKey

	// syntax.go: the second document, then what a YAML problem means.
	mSecondDocument
	mInvalidYAML
	mYAMLTab
	mYAMLIndent
	mYAMLColon
	mYAMLNoColon
	mYAMLReserved
	mYAMLEnd
	mYAMLList
	mYAMLMapping
	mYAMLEscape
	mYAMLBytes
	mYAMLAnchor
	mYAMLDepth
	mYAMLTag
	mYAMLBlock
	mYAMLOther

	// report.go
	mNotFound
	mCreated

	// secrets.go
	mSecretsReadable

	// wizard.go and wizard_split.go: a field and its problem, the fields' names, the
	// problems.
	mFieldProblem
	mFieldWhere
	mFieldProgram
	mFieldArguments
	mFieldAgentConfigFile
	mFieldCreateCommand
	mFieldStopCommand
	mFieldRemoveCommand
	mFieldLifecycleFolder
	mNotAPlace
	mLifecycleLocal
	mNoProgram
	mHomeUnknown
	mNotAbsolutePath
	mUnterminatedQuote

	messageCount // not a message: the number of keys
)

// catalogue holds the configuration's messages in every language.
var catalogue = i18n.NewCatalogue[message](messagesEN[:], messagesFR[:])
