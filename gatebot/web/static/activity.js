// The table inside Discord (an Activity): signs the page in as the Discord player who opened it.
// Loaded only when Discord opened the page (its frame_id in the address), and the SDK only then.
// The server believes nothing the page says about who it is: it exchanges the code Discord gives
// here with Discord itself, and answers the access token the SDK then authenticates with.

// How long Discord's client may take to answer the SDK's handshake (ms) before the page says so.
const READY_WAIT = 20000;

function within(promise, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer")), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Signs in; resolves to the server's answer ({csrf, name, access_token}) or {error: "one sentence"}.
export async function signIn(clientId, csrf, words) {
  let sdk;
  try {
    const { DiscordSDK } = await import("./vendor/discord-sdk.js");
    sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
    await within(sdk.ready(), READY_WAIT);
  } catch {
    return { error: words.discordSilent };
  }
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    }));
  } catch {
    return { error: words.discordRefused };
  }
  let data = {};
  try {
    const response = await fetch("api/activity/token", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ code }),
      credentials: "same-origin",
    });
    data = await response.json();
  } catch {
    return { error: words.badAnswer };
  }
  if (data.error || !data.access_token) return { error: data.error || words.badAnswer };
  try {
    await sdk.commands.authenticate({ access_token: data.access_token });
  } catch {
    // The page is signed in with gatebot already; only the SDK's own commands needed this.
  }
  return data;
}
