export { DiscordSDK, DiscordSDKMock, Events, patchUrlMappings } from "@discord/embedded-app-sdk";
