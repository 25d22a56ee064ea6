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

// Signs in; resolves to the server's answer ({csrf, name, id, access_token}) with the SDK as `sdk`, or
// {error: "one sentence"}.
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
  return { ...data, sdk };
}

// The SDK's event of the instance's participants, and its command for the list as it is now.
const PARTICIPANTS = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";

// Who else has this Activity open (the SDK's participants, the player left out), told to `onChange` as
// their names now and again after every change. Names are the players' own text: the caller shows them
// as text. An update that arrives before the first list's answer wins over that (older) answer.
export async function watchParticipants(sdk, me, onChange) {
  const names = (participants) => (participants || []).filter((p) => p.id !== me)
    .map((p) => p.nickname || p.global_name || p.username);
  let updated = false;
  try {
    await sdk.subscribe(PARTICIPANTS, (data) => {
      updated = true;
      onChange(names(data.participants));
    });
  } catch {
    // Not told of changes: the first list still shows.
  }
  try {
    const { participants } = await sdk.commands.getInstanceConnectedParticipants();
    if (!updated) onChange(names(participants));
  } catch {
    // Discord's client didn't say who is here: nobody is named.
  }
}
