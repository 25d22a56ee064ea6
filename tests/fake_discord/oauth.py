"""Discord's OAuth2 as an Activity's sign-in meets it: codes, the token endpoint, ``/oauth2/@me``.

In Discord the SDK's ``authorize`` gives the page a one-time code; here a test makes one with
:meth:`OAuth.authorize` (for a user, granted to an application, good for so long). The token
endpoint (``POST /oauth2/token``, form-encoded, as Discord takes it) checks the client id and
secret, then the code: unknown, used already, expired or granted to another application is
Discord's ``invalid_grant``; a wrong client is ``invalid_client`` (401). A good code is spent
and answered with a bearer token, which ``GET /oauth2/@me`` names the application and user of
(a wrong or missing token: 401). A code from the authorisation page (``GET /oauth2/authorize``,
for "Sign in with Discord" on the open web: :attr:`OAuth.browser_user` allows, or
:attr:`OAuth.denies`) is good only with the same ``redirect_uri`` and the PKCE verifier of its
S256 challenge. Discord's API description has no token endpoint, so the fake
checks that request itself; ``/oauth2/@me`` is refereed like every other call. The routes are
:mod:`tests.fake_discord.rest_oauth`.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from dataclasses import dataclass, field

from tests.fake_discord.model import FakeUser

#: The fake application's OAuth2 client secret (its id is the application's).
CLIENT_SECRET = "fake-client-secret-not-a-real-one"
#: How long a token lasts, as Discord says (a week).
TOKEN_SECONDS = 604800


@dataclass
class Grant:
    """A user's authorisation of an application: its code, then its access token."""

    user: FakeUser
    application_id: int
    scopes: tuple[str, ...]
    expires_at: float
    used: bool = False
    #: Where the authorisation page sent the browser back to (the token request must name it again); None: the SDK's.
    redirect_uri: str | None = None
    #: The PKCE challenge (S256) the authorisation page was asked with: the token request's verifier must match it.
    code_challenge: str | None = None


@dataclass
class OAuth:
    """The fake's codes and tokens."""

    client_secret: str = CLIENT_SECRET
    #: False: the token endpoint forgets to check that a code was granted to the client asking (a Discord
    #: gone wrong), so a test can see that the table checks ``/oauth2/@me``'s application itself.
    checks_application: bool = True
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, Grant] = field(default_factory=dict)
    #: Who is logged in to Discord in the browser that opens the authorisation page (None: nobody, a 401 page).
    browser_user: FakeUser | None = None
    #: The user presses Cancel on the authorisation page: back to the site with ``error=access_denied``.
    denies: bool = False
    #: What the authorisation page was last asked (its query), for a test to look at.
    asked: dict[str, str] = field(default_factory=dict)
    #: Each token request's form, as received (the fake's record of form bodies), for a test to look at.
    exchanges: list[dict[str, str]] = field(default_factory=list)

    def authorize(self, user: FakeUser, application_id: int, *, scopes: tuple[str, ...] = ("identify",),
                  seconds: float = 600, redirect_uri: str | None = None, code_challenge: str | None = None) -> str:
        """A code ``user`` granted ``application_id`` (from the SDK's ``authorize``, or the authorisation page)."""
        code = secrets.token_urlsafe(22)
        self.codes[code] = Grant(user, application_id, scopes, time.time() + seconds, redirect_uri=redirect_uri,
                                 code_challenge=code_challenge)
        return code


def s256(verifier: str) -> str:
    """RFC 7636's S256 challenge of a PKCE verifier: base64url of its SHA-256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=").decode()
