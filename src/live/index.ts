/**
 * `rewindable/live`: stream a recording to a viewer in another tab or on another machine, and keep
 * more history than the game's ring. The game side is `connectLive` (a `LiveSender`); the viewer
 * side is `LiveViewer` and its `LiveStore`; the wire format is specified in docs/live-viewer.md.
 * Runs in browsers, workers and Node (no DOM); the relay server is `npx rewindable serve`.
 */
export { type ConnectLiveOptions, connectLive, liveUrl } from './connectLive';
export { LiveError, type LiveErrorCode } from './LiveError';
export { LiveSender, LiveSenderStats } from './LiveSender';
export {
  DEFAULT_LIVE_SENDER_OPTIONS,
  type LiveCommandHandler,
  type LiveSenderOptions,
  type LiveSource,
} from './LiveSenderOptions';
export { DEFAULT_LIVE_STORE_OPTIONS, LiveStore, type LiveStoreOptions } from './LiveStore';
export {
  BroadcastChannelTransport,
  type BroadcastChannelLike,
  DEFAULT_WEBSOCKET_TRANSPORT_OPTIONS,
  LIVE_TAB_CHANNEL,
  type LiveTransport,
  type WebSocketConstructor,
  type WebSocketLike,
  WebSocketTransport,
  type WebSocketTransportOptions,
} from './LiveTransport';
export { LiveValidator } from './LiveValidator';
export { DEFAULT_LIVE_VIEWER_OPTIONS, LiveViewer, type LiveViewerOptions } from './LiveViewer';
export type { LiveChannel, LiveFieldSchema, LiveMeta, LiveStaticLayer } from './messages';
export {
  DEFAULT_LIVE_LIMITS,
  FRAME_PADDING_BYTES,
  LIFE_ENDED,
  LIFE_HAS_LABEL,
  LIVE_COMMANDS,
  LIVE_FORMAT_VERSION,
  LIVE_PROTOCOL,
  LIVE_PROTOCOL_VERSION,
  type LiveCommand,
  type LiveCommandName,
  type LiveCommandResult,
  type LiveHello,
  type LiveLimits,
  LiveMessageType,
  type LiveMessageTypeCode,
  type LiveSessionInfo,
  decodeBody,
  encodeMessage,
  messageType,
} from './protocol';
