// Method names of the protocol, as the specification spells them.

export const Method = {
  Initialize: 'initialize',
  Ping: 'ping',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  ResourcesList: 'resources/list',
  ResourcesTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  ResourcesSubscribe: 'resources/subscribe',
  ResourcesUnsubscribe: 'resources/unsubscribe',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  CompletionComplete: 'completion/complete',
  LoggingSetLevel: 'logging/setLevel',
  SamplingCreateMessage: 'sampling/createMessage',
  ElicitationCreate: 'elicitation/create',
  RootsList: 'roots/list',
  // The stateless revision (2026-07-28).
  ServerDiscover: 'server/discover',
  SubscriptionsListen: 'subscriptions/listen',
  // The tasks extension (io.modelcontextprotocol/tasks, SEP-2663), on the stateless revision.
  TasksGet: 'tasks/get',
  TasksUpdate: 'tasks/update',
  TasksCancel: 'tasks/cancel',
} as const;

export const Notification = {
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  Message: 'notifications/message',
  ResourcesUpdated: 'notifications/resources/updated',
  ResourcesListChanged: 'notifications/resources/list_changed',
  ToolsListChanged: 'notifications/tools/list_changed',
  PromptsListChanged: 'notifications/prompts/list_changed',
  RootsListChanged: 'notifications/roots/list_changed',
  ElicitationComplete: 'notifications/elicitation/complete',
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
} as const;
