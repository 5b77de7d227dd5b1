package app

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// msg is a text of the application that the user sees: its menus and their dialogs, window
// titles and contents, status messages, messages on stderr. Each has an English and a French
// text; one with verbs is formatted with its arguments, and a menu's marks its letter with
// tildes ("~Q~uit").
type msg int

// The application's texts.
const (
	msgNone msg = iota

	msgErrorsTitle
	msgErrorsIntro
	msgErrorsKept
	msgStatusTitle
	msgStatusConfig
	msgStatusProject
	msgStatusNoProject
	msgStatusRunning
	msgStatusNoAgents
	msgStatusAgentsHeading
	msgStatusLoadedAt
	msgStatusWarnings

	msgMembers
	msgNoMembers
	msgNotConfigured
	msgChannelGone

	msgCommand
	msgWorkspace
	msgRuntime
	msgState
	msgStatePid
	msgExit
	msgStderrTail
	msgAgentRemoved

	msgStateStopped
	msgStateStarting
	msgStateReady
	msgStateBusy
	msgStateWaiting
	msgStateStopping
	msgStateError

	msgReloaded
	msgReloadedWithWarnings
	msgReloadedFirstWarning
	msgReloadKept
	msgAgentsAdded
	msgAgentsRemoved
	msgChannelsCreated

	msgNameTooLong
	msgNameControl
	msgNameTaken
	msgChannelCreated
	msgChannelRenamed
	msgChannelDeleted
	msgHistoryFailed
	msgNoTurn

	msgOpenConfigTitle
	msgOpenConfigMissing
	msgSameConfig

	msgStopping
	msgStoppingNone
	msgWaitingAgents

	msgNoWindow
	msgKeyCtrlW
	msgKeyPermissionDigit
	msgKeyAltK
	msgKeysPermission
	msgKeyPermKinds
	msgKeyPermAlways
	msgKeyPermRejectAll
	msgKeyPermEsc
	msgKeyPermGuard
	msgPermissionAsks
	msgPermissionWhere
	msgItemRequests
	msgRequestsTitle
	msgNoRequests
	msgRequestMore

	// The menus Sidekicks, Channels and Agent (Window and Help are the toolkit's).
	msgMenuSidekicks
	msgMenuChannels
	msgMenuAgent

	msgItemOpenConfig
	msgItemRecentFiles
	msgItemEditConfig
	msgItemReload
	msgItemQuit

	msgItemNewChannel
	msgItemRenameChannel
	msgItemDeleteChannel
	msgItemAddMember
	msgItemRemoveMember
	msgNoChannels

	msgItemAgentsPanel
	msgItemAddAgent
	msgItemCreateAgentsFile
	msgItemAllowProject
	msgAllowProjectTitle
	msgAllowProjectAsk
	msgAllowProjectFailed
	msgItemCancelTurn
	msgItemAgentStatus
	msgNoAgents

	msgChannelName
	msgNewChannelTitle
	msgRenameChannelTitle
	msgDeleteChannelTitle
	msgDeleteChannelAsk
	msgNameNeeded
	msgRecentFilesTitle
	msgNoRecentFiles

	msgPanic
	msgStartFailed

	msgCount
)

// messagesEN holds the English texts.
var messagesEN = [msgCount]string{
	msgErrorsTitle:         "Configuration errors",
	msgErrorsIntro:         "%s has errors: its agents are not available until they are fixed. Each save of the file is applied.",
	msgErrorsKept:          "The last save of %s has errors: the running configuration is kept until they are fixed.",
	msgStatusTitle:         "Agent status",
	msgStatusConfig:        "Configuration: %s",
	msgStatusProject:       "Project agents file: %s",
	msgStatusNoProject:     "Project agents file: none in %s",
	msgStatusRunning:       "Running agents: %d of %d at most",
	msgStatusNoAgents:      "No agent is configured.",
	msgStatusAgentsHeading: "Agents",
	msgStatusLoadedAt:      "Loaded at %s",
	msgStatusWarnings:      "Warnings of this load:",

	msgMembers:       "Members",
	msgNoMembers:     "No member yet: mention an agent with @name to add it.",
	msgNotConfigured: "not in the configuration",
	msgChannelGone:   "This channel was deleted.",

	msgCommand:      "Command: %s",
	msgWorkspace:    "Workspace: %s",
	msgRuntime:      "Runtime: %s",
	msgState:        "State: %s",
	msgStatePid:     "%s, process %d",
	msgExit:         "Ended with %s",
	msgStderrTail:   "Last lines of its error output:",
	msgAgentRemoved: "This agent was removed from the configuration: it was stopped, and its conversation stays in the history.",

	msgStateStopped:  "stopped",
	msgStateStarting: "starting",
	msgStateReady:    "ready",
	msgStateBusy:     "busy",
	msgStateWaiting:  "waiting for a free slot",
	msgStateStopping: "stopping",
	msgStateError:    "error",

	msgReloaded:             "Configuration reloaded",
	msgReloadedWithWarnings: "Configuration reloaded, with %s (all in Agent ▸ Agent status)",
	msgReloadedFirstWarning: "first: %s",
	msgReloadKept:           "The configuration has errors: the running one is kept (see the errors window)",
	msgAgentsAdded:          "New agents: %s",
	msgAgentsRemoved:        "Removed agents: %s",
	msgChannelsCreated:      "New channels: %s",

	msgNameTooLong:    "At most %d characters.",
	msgNameControl:    "No control characters.",
	msgNameTaken:      "#%s already exists.",
	msgChannelCreated: "Channel #%s created",
	msgChannelRenamed: "Channel renamed to #%s",
	msgChannelDeleted: "Channel #%s deleted",
	msgHistoryFailed:  "The history could not be changed; %s says why",
	msgNoTurn:         "No turn is running here",

	msgOpenConfigTitle:   "Open configuration",
	msgOpenConfigMissing: "%s does not exist",
	msgSameConfig:        "This configuration is the one open",

	msgStopping:      "Stopping %s, then their afterStop commands",
	msgStoppingNone:  "Running the last afterStop commands",
	msgWaitingAgents: "Waiting for the agents to stop…",

	msgNoWindow:           "No window open: Alt-C for the channels, Alt-A for the agents.",
	msgKeyCtrlW:           "Close the window (an agent window also stops its agent)",
	msgKeyPermissionDigit: "In a permission request, choose option N (never a letter of its name)",
	msgKeyAltK:            "In an agent window, kill the commands the agent runs in Sidekicks' terminal",
	msgKeysPermission:     "In a permission request (in its own window, in front)",
	msgKeyPermKinds:       "Answer with the first option of that kind: y allow once, n reject once",
	msgKeyPermAlways:      "Answer with the first \"always\" option (allow, reject); Enter confirms",
	msgKeyPermRejectAll:   "With more than one request waiting: reject them all",
	msgKeyPermEsc:         "Cancel the turn, and every request with it",
	msgKeyPermGuard:       "No key answers within 0.3 s of the request coming into sight, nor while you type (0.5 s)",
	msgPermissionAsks:     "%s asks permission — %s",
	msgPermissionWhere:    "Agent ▸ Permission requests",
	msgItemRequests:       "Permission ~r~equests…",
	msgRequestsTitle:      "Permission requests",
	msgNoRequests:         "No permission request waits",
	msgRequestMore:        "(+%d waiting)",

	msgMenuSidekicks: "~S~idekicks",
	msgMenuChannels:  "~C~hannels",
	msgMenuAgent:     "~A~gent",

	msgItemOpenConfig:  "~O~pen configuration…",
	msgItemRecentFiles: "~R~ecent files…",
	msgItemEditConfig:  "~E~dit configuration",
	msgItemReload:      "Re~l~oad configuration",
	msgItemQuit:        "~Q~uit",

	msgItemNewChannel:    "~N~ew channel…",
	msgItemRenameChannel: "~R~ename channel…",
	msgItemDeleteChannel: "~D~elete channel…",
	msgItemAddMember:     "~A~dd member…",
	msgItemRemoveMember:  "Re~m~ove member…",
	msgNoChannels:        "(no channel)",

	msgItemAgentsPanel:      "Agents ~p~anel…",
	msgItemAddAgent:         "~A~dd an agent…",
	msgItemCreateAgentsFile: "Create agents ~f~ile",
	msgItemAllowProject:     "Allo~w~ project agents…",
	msgAllowProjectTitle:    "Allow project agents",
	msgAllowProjectAsk:      "%s defines these agents; allowing it lets Sidekicks run them:\n\n%s\nAllow these agents to run? A change to the file must be allowed again.",
	msgAllowProjectFailed:   "The approval could not be recorded: %s",
	msgItemCancelTurn:       "~C~ancel turn",
	msgItemAgentStatus:      "Agent ~s~tatus",
	msgNoAgents:             "(no agent)",

	msgChannelName:        "Channel name:",
	msgNewChannelTitle:    "New channel",
	msgRenameChannelTitle: "Rename channel",
	msgDeleteChannelTitle: "Delete channel",
	msgDeleteChannelAsk:   "Delete the channel %q and its history?",
	msgNameNeeded:         "A name is needed.",
	msgRecentFilesTitle:   "Recent files",
	msgNoRecentFiles:      "(no recent file)",

	msgPanic:       "sidekicks: stopped on an internal error; the details are in %s",
	msgStartFailed: "sidekicks: %s",
}

// messagesFR holds the French texts; a missing one falls back to English.
var messagesFR = [msgCount]string{
	msgErrorsTitle:         "Erreurs de configuration",
	msgErrorsIntro:         "%s contient des erreurs : ses agents ne sont pas disponibles tant qu'elles ne sont pas corrigées. Chaque enregistrement du fichier est appliqué.",
	msgErrorsKept:          "Le dernier enregistrement de %s contient des erreurs : la configuration en cours est gardée jusqu'à ce qu'elles soient corrigées.",
	msgStatusTitle:         "État des agents",
	msgStatusConfig:        "Configuration : %s",
	msgStatusProject:       "Fichier d'agents du projet : %s",
	msgStatusNoProject:     "Fichier d'agents du projet : aucun dans %s",
	msgStatusRunning:       "Agents en marche : %d sur %d au plus",
	msgStatusNoAgents:      "Aucun agent n'est configuré.",
	msgStatusAgentsHeading: "Agents",
	msgStatusLoadedAt:      "Chargée à %s",
	msgStatusWarnings:      "Avertissements de ce chargement :",

	msgMembers:       "Membres",
	msgNoMembers:     "Pas encore de membre : mentionnez un agent avec @nom pour l'ajouter.",
	msgNotConfigured: "absent de la configuration",
	msgChannelGone:   "Ce canal a été supprimé.",

	msgCommand:      "Commande : %s",
	msgWorkspace:    "Espace de travail : %s",
	msgRuntime:      "Exécution : %s",
	msgState:        "État : %s",
	msgStatePid:     "%s, processus %d",
	msgExit:         "Terminé avec %s",
	msgStderrTail:   "Dernières lignes de sa sortie d'erreur :",
	msgAgentRemoved: "Cet agent a été retiré de la configuration : il a été arrêté, et sa conversation reste dans l'historique.",

	msgStateStopped:  "arrêté",
	msgStateStarting: "démarrage",
	msgStateReady:    "prêt",
	msgStateBusy:     "occupé",
	msgStateWaiting:  "attend une place libre",
	msgStateStopping: "arrêt en cours",
	msgStateError:    "erreur",

	msgReloaded:             "Configuration rechargée",
	msgReloadedWithWarnings: "Configuration rechargée, avec %s (tous dans Agent ▸ État des agents)",
	msgReloadedFirstWarning: "le premier : %s",
	msgReloadKept:           "La configuration contient des erreurs : celle en cours est gardée (voir la fenêtre des erreurs)",
	msgAgentsAdded:          "Nouveaux agents : %s",
	msgAgentsRemoved:        "Agents retirés : %s",
	msgChannelsCreated:      "Nouveaux canaux : %s",

	msgNameTooLong:    "%d caractères au plus.",
	msgNameControl:    "Pas de caractère de contrôle.",
	msgNameTaken:      "#%s existe déjà.",
	msgChannelCreated: "Canal #%s créé",
	msgChannelRenamed: "Canal renommé en #%s",
	msgChannelDeleted: "Canal #%s supprimé",
	msgHistoryFailed:  "L'historique n'a pas pu être modifié ; %s dit pourquoi",
	msgNoTurn:         "Aucun tour en cours ici",

	msgOpenConfigTitle:   "Ouvrir une configuration",
	msgOpenConfigMissing: "%s n'existe pas",
	msgSameConfig:        "Cette configuration est celle qui est ouverte",

	msgStopping:      "Arrêt de %s, puis leurs commandes afterStop",
	msgStoppingNone:  "Exécution des dernières commandes afterStop",
	msgWaitingAgents: "Attente de l'arrêt des agents…",

	msgNoWindow:           "Aucune fenêtre ouverte : Alt-C pour les canaux, Alt-A pour les agents.",
	msgKeyCtrlW:           "Fermer la fenêtre (une fenêtre agent arrête aussi son agent)",
	msgKeyPermissionDigit: "Dans une demande d'autorisation, choisir l'option N (jamais une lettre de son nom)",
	msgKeyAltK:            "Dans une fenêtre agent, arrêter les commandes que l'agent lance dans le terminal de Sidekicks",
	msgKeysPermission:     "Dans une demande d'autorisation (dans sa fenêtre, au premier plan)",
	msgKeyPermKinds:       "Répondre avec la première option de ce type : y autoriser une fois, n refuser une fois",
	msgKeyPermAlways:      "Répondre avec la première option « toujours » (autoriser, refuser) ; Entrée confirme",
	msgKeyPermRejectAll:   "Quand plusieurs demandes attendent : toutes les refuser",
	msgKeyPermEsc:         "Annuler le tour, et toutes ses demandes",
	msgKeyPermGuard:       "Aucune touche ne répond dans les 0,3 s après l'apparition de la demande, ni pendant la frappe (0,5 s)",
	msgPermissionAsks:     "%s demande une autorisation — %s",
	msgPermissionWhere:    "Agent ▸ Demandes d'autorisation",
	msgItemRequests:       "~D~emandes d'autorisation…",
	msgRequestsTitle:      "Demandes d'autorisation",
	msgNoRequests:         "Aucune demande d'autorisation n'attend",
	msgRequestMore:        "(+%d en attente)",

	msgMenuSidekicks: "~S~idekicks",
	msgMenuChannels:  "~C~anaux",
	msgMenuAgent:     "~A~gent",

	msgItemOpenConfig:  "~O~uvrir une configuration…",
	msgItemRecentFiles: "Fichiers ~r~écents…",
	msgItemEditConfig:  "~M~odifier la configuration",
	msgItemReload:      "Re~c~harger la configuration",
	msgItemQuit:        "~Q~uitter",

	msgItemNewChannel:    "~N~ouveau canal…",
	msgItemRenameChannel: "~R~enommer le canal…",
	msgItemDeleteChannel: "~S~upprimer le canal…",
	msgItemAddMember:     "~A~jouter un membre…",
	msgItemRemoveMember:  "Re~t~irer un membre…",
	msgNoChannels:        "(aucun canal)",

	msgItemAgentsPanel:      "~P~anneau des agents…",
	msgItemAddAgent:         "A~j~outer un agent…",
	msgItemCreateAgentsFile: "Créer le ~f~ichier d'agents",
	msgItemAllowProject:     "Auto~r~iser les agents du projet…",
	msgAllowProjectTitle:    "Autoriser les agents du projet",
	msgAllowProjectAsk:      "%s définit ces agents ; l'autoriser permet à Sidekicks de les lancer :\n\n%s\nAutoriser ces agents à s'exécuter ? Une modification du fichier devra être autorisée à nouveau.",
	msgAllowProjectFailed:   "L'autorisation n'a pas pu être enregistrée : %s",
	msgItemCancelTurn:       "~A~nnuler le tour",
	msgItemAgentStatus:      "É~t~at des agents",
	msgNoAgents:             "(aucun agent)",

	msgChannelName:        "Nom du canal :",
	msgNewChannelTitle:    "Nouveau canal",
	msgRenameChannelTitle: "Renommer le canal",
	msgDeleteChannelTitle: "Supprimer le canal",
	msgDeleteChannelAsk:   "Supprimer le canal %q et son historique ?",
	msgNameNeeded:         "Il faut un nom.",
	msgRecentFilesTitle:   "Fichiers récents",
	msgNoRecentFiles:      "(aucun fichier récent)",

	msgPanic:       "sidekicks : arrêt sur une erreur interne ; les détails sont dans %s",
	msgStartFailed: "sidekicks : %s",
}

// catalogue holds the application's texts in every language.
var catalogue = i18n.NewCatalogue[msg](messagesEN[:], messagesFR[:])

// stateName names an agent's state in lang.
func stateName(lang i18n.Lang, s runtime.State) string {
	switch s {
	case runtime.Starting:
		return catalogue.Text(lang, msgStateStarting)
	case runtime.Ready:
		return catalogue.Text(lang, msgStateReady)
	case runtime.Busy:
		return catalogue.Text(lang, msgStateBusy)
	case runtime.Waiting:
		return catalogue.Text(lang, msgStateWaiting)
	case runtime.Stopping:
		return catalogue.Text(lang, msgStateStopping)
	case runtime.Error:
		return catalogue.Text(lang, msgStateError)
	}
	return catalogue.Text(lang, msgStateStopped)
}
