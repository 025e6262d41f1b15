// DO NOT EDIT: generated from openapi/openapi.yaml by `npm run generate`.
/* eslint-disable */
export interface paths {
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a player account
         * @description Creates an active, non-admin `local_password` user and returns its
         *     first API key (shown once), and mails a link to verify the email
         *     (see `POST /api/auth/email-verification`; this mail does not count
         *     against the mail budgets: registrations have their own). `username`, `password` and `email` are
         *     required; `first_name` is optional. Usernames and emails are unique
         *     without regard to case; a taken one gives 409.
         *
         *     Against mass sign-ups, registrations count against a budget per
         *     client address kept in the database (20 per hour by default; every
         *     attempt that reaches this check counts, taken names included). Over
         *     it the request answers 429 with `Retry-After` and creates nothing.
         *     Limits: `REGISTER_MAX_PER_IP` (`0` turns it off),
         *     `REGISTER_WINDOW_SECONDS`.
         */
        post: operations["registerUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with username or email
         * @description `username` takes either the username or the email. A successful login
         *     revokes every earlier active key of the user and returns a new one.
         *     Wrong credentials and inactive accounts both give 401 with the same
         *     detail, so the answer does not reveal which accounts exist.
         *
         *     Against password guessing, every attempt counts against two budgets
         *     kept in the database (so every process shares them): the login name
         *     from one client address (10 attempts per 15 minutes by default), and
         *     the client address over all login names (100 per 15 minutes). A
         *     successful login clears the first and gives its attempt back to the
         *     second. An attempt over either budget answers 429 with `Retry-After`
         *     without checking the password (the correct one included). The
         *     operator UI's sign-in form shares these budgets. Limits:
         *     `LOGIN_MAX_ATTEMPTS`, `LOGIN_MAX_ATTEMPTS_PER_IP`,
         *     `LOGIN_WINDOW_SECONDS`.
         */
        post: operations["loginUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out (revoke the key used)
         * @description Revokes the API key sent with this request; other keys are untouched.
         */
        post: operations["logoutUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password-reset link by email ("forgot password")
         * @description When an active account has this email, mails it a link to the player
         *     app (`<PLAYER_APP_URL>/reset-password?token=...`) whose token sets a
         *     new password with `POST /api/auth/password-reset/confirm`. The link
         *     works once, for 60 minutes (`PASSWORD_RESET_TTL_MINUTES`), and only
         *     the latest one asked for works. The answer is 202 whether or not an
         *     account has the address, and does not wait for the mail, so it tells
         *     nothing about which addresses have accounts.
         *
         *     Mails asked for count, before the address is looked up, against two
         *     budgets kept in the database (as sign-in attempts do): the recipient
         *     from one client address (3 per hour by default) and the client
         *     address over all recipients (20 per hour); past either, 429 with
         *     `Retry-After` and no mail. Limits: `MAIL_MAX_PER_RECIPIENT`,
         *     `MAIL_MAX_PER_IP`, `MAIL_WINDOW_SECONDS` (shared by every mail a
         *     player asks for).
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a mailed reset token
         * @description Sets the password of the account the token was mailed for, revokes
         *     every API key of the account (open stream sockets close) and its
         *     operator-UI sessions, and returns a new key, as a login does. Using
         *     the link proves the mailbox too: an account whose email is still the
         *     one the link went to is verified by it. A token that is unknown,
         *     used, expired, or whose account is no longer active gives 400
         *     (`account.reset_token_invalid`, one answer for all four).
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail the caller a new email-verification link
         * @description Mails the caller's email a link to the player app
         *     (`<PLAYER_APP_URL>/verify-email?token=...`) whose token verifies the
         *     address with `POST /api/auth/email-verification/confirm`; it works
         *     once, for 48 hours (`EMAIL_VERIFICATION_TTL_HOURS`), and only the
         *     latest link works. Registering and changing one's email send one by
         *     themselves; this sends it again. An email already verified gives 409.
         *     Counted against the mail budgets (429, see
         *     `POST /api/auth/password-reset`).
         *
         *     What verification changes: an unverified account plays in full
         *     (follows, answers, points, leaderboards, the stream, push) but
         *     cannot create or join private player groups (403
         *     `account.email_unverified`), where throwaway accounts could fill or
         *     spam other players' groups.
         */
        post: operations["requestEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-verification/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify an email with a mailed token
         * @description Verifies the address the link was mailed to, if it is still the
         *     account's email (a link sent before an email change verifies
         *     nothing). Open: the link may be opened on another device than the
         *     app's. A token that is unknown, used, expired, or for an address the
         *     account no longer has gives 400 (`account.verification_token_invalid`).
         */
        post: operations["verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain a Bearer key for the operator UI
         * @description Called by the operator UI under `/admin` with its session cookie (set
         *     by the UI's login form for an active admin) and the CSRF token of that
         *     session in the `X-CSRF-Token` header. Returns a fresh API key of the
         *     signed-in admin for the UI's calls to the JSON API. The key belongs
         *     to the session: it expires when the session does (12 hours after
         *     sign-in) and is revoked when the operator signs out of the UI (open
         *     live-stream sockets opened with it close with 4401); the admin's other
         *     keys stay valid. A missing or expired session gives 401; a session
         *     whose user is no longer an active admin gives 403.
         */
        post: operations["createAdminApiSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/brands": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List brands
         * @description All brands ordered by name (then id). `q` matches case-insensitively
         *     as a substring of the name, primary color, secondary color, logo
         *     filename or id.
         */
        get: operations["listBrands"];
        put?: never;
        /**
         * [Admin] Create a brand
         * @description Multipart form. `name` (unique, case-insensitive) and `primary_color`
         *     are required, `secondary_color` and the `logo` file are optional.
         *     Colors are `#RGB` or `#RRGGBB` (any case; stored as lowercase
         *     `#rrggbb`); anything else gives 400. The logo must be a PNG, JPEG,
         *     GIF or WebP image of at most 2 MiB, recognized from its bytes, not its
         *     name or declared type (400 otherwise). It is stored in the configured
         *     bucket at `brands/{id}/{filename}`; without a configured bucket an
         *     upload gives 503.
         */
        post: operations["createBrand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/brands/{brand_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        /** Get a brand */
        get: operations["getBrand"];
        put?: never;
        post?: never;
        /**
         * [Admin] Delete a brand
         * @description Deletes the brand and its stored logo. Its question sponsorship slots
         *     are deleted with it, and matches it sponsored lose their sponsor;
         *     issuances already stamped keep their snapshot. A brand with a logo
         *     cannot be deleted without a configured bucket (503), so no logo is
         *     left behind.
         */
        delete: operations["deleteBrand"];
        options?: never;
        head?: never;
        /**
         * [Admin] Update a brand
         * @description Multipart partial update: omitted fields are unchanged. A new `logo`
         *     replaces the stored one (the old object is deleted when its key
         *     differs); `clear_logo=true` removes it. Sending both gives 400.
         *     Touching the logo (upload, or clearing an existing one) without a
         *     configured bucket gives 503.
         */
        patch: operations["updateBrand"];
        trace?: never;
    };
    "/api/brands/{brand_id}/question-sponsorships": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        /**
         * List a brand's question sponsorship slots
         * @description Without `match_ids`, every slot of the brand. With `match_ids`
         *     (repeatable), only slots on those matches (unknown ids simply match
         *     nothing); an explicitly empty list (`?match_ids=`) returns no rows.
         *     Ordered by match id, then question number (numbered slots first),
         *     then creation (slots created together keep the order they were given
         *     in). Paged: at most `limit` slots (default 1,000) after `offset`.
         */
        get: operations["listBrandQuestionSponsorships"];
        put?: never;
        /**
         * [Admin] Assign question sponsorship slots to matches
         * @description Places this brand's slots on each of `match_ids`, all in one
         *     transaction: any failure changes none of the matches. Give either
         *     `slots` or `random_percent`, not both (400); giving neither is a 400
         *     too, except empty `slots` with replace, which clears.
         *
         *     Slot strategies:
         *     - `question_number`: `target` is the 1-based number of the match's
         *       regular (non-pivotal) question the slot sponsors. A number already
         *       taken on the match by any brand, or given twice in `slots`, gives
         *       409; a number outside 1..`question_max_count` (the match's
         *       override, else its league's default) gives 400.
         *     - `period`: `target` is a period key of the league's sport (for
         *       football `1`, `2`, `et1`, `et2`). The slot sponsors the first
         *       unsponsored question issued in that period. With `best_effort`
         *       (default true) a slot left unused when the period ends moves on to
         *       the next question issued; without it the slot lapses.
         *     - `next_available`: no `target`; sponsors the next unsponsored
         *       question issued.
         *     - `definition`: `target` is the id of an in-game definition of the
         *       match's league, not archived (400 otherwise); sponsors the next
         *       unsponsored question issued from it (such a slot keeps the
         *       definition from being deleted).
         *
         *     A target of the wrong type for its strategy (a string question
         *     number, a number as period key, any target on `next_available`) is an
         *     invalid slot target (400). `best_effort` is stored on every slot and
         *     defaults to true; only `period` slots use it.
         *
         *     `random_percent` places round(question_max_count x percent / 100)
         *     `question_number` slots on each match (halves round up, as JavaScript's
         *     `Math.round`: 25% of 10 is 3; a result of 0 places none), on distinct
         *     numbers drawn at random among those no slot holds (409 when too few
         *     are free). With `replace_existing_for_brand` (default true) the
         *     brand's existing slots on those matches are removed first; empty
         *     `slots` with replace clears them. Per match, slots (of all brands)
         *     never exceed its `question_max_count` (409); removing slots is always
         *     allowed. Only `scheduled` and `postponed` matches are editable; a
         *     match in any other status (`live`, `break`, `ended`, `closed`,
         *     `cancelled`) gives 400. Concurrent assignments on a match are
         *     serialized by a lock on the match, so two of them never together
         *     exceed its cap.
         */
        post: operations["assignBrandQuestionSponsorships"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/sample-catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Canonical feed event types of a league, with a sample event each
         * @description The normalized event types a definition of this league can trigger on
         *     or resolve from, each with the fields of its `data` and, unless
         *     `include_samples=false`, one representative sample event (the shape
         *     the feed importers produce from recorded match data) to author and
         *     preview templates and expressions against. A slug the service does
         *     not support gives 400 naming it; the catalog needs no league row.
         */
        get: operations["getQuestionSampleCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Render a question from a sample event
         * @description Renders the question text and choice labels exactly as the live
         *     engine would when the trigger fires, from either an inline
         *     `sample_event` or the league's sample of `sample_event_type` (see the
         *     sample catalog), with optional `store_state` (the per-match state
         *     store's contents) and `issuance_state_extract` (expressions whose
         *     results are snapshotted into the issuance). Persists nothing.
         *     A template or expression that fails gives 400 with the failing field
         *     and the engine's message; a sample event type the league's catalog
         *     lacks gives 404.
         */
        post: operations["previewQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] Export every in-game definition as CSV
         * @description Every in-game definition of every league, archived ones included,
         *     ordered by league and name (without regard to case). Columns: the
         *     live fields of a definition plus `league` (the slug); object and array
         *     fields are JSON strings.
         *     A cell whose text starts with `=`, `+`, `-`, `@`, tab or carriage
         *     return is prefixed with a single quote so spreadsheets do not run it
         *     as a formula; the import removes exactly that prefix again, so an
         *     export imports back with no changes. Streamed as it is read.
         */
        get: operations["exportQuestionDefinitions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Import in-game definitions from CSV
         * @description Multipart with one `file` in the export's format (UTF-8, a byte order
         *     mark and CRLF line ends are fine; at most 5 MiB, 2,000 rows, 1,000
         *     blank lines or rows of empty cells, 100 cells and 1,048,576
         *     characters in a row, the header included; a file that is not UTF-8 is
         *     a 422 at `["body", "file"]`). A row
         *     with a blank `id` creates a definition in its `league`; a row with the
         *     id of an existing definition replaces it (`league` must be that
         *     definition's league: definitions do not move between leagues); an
         *     unknown id, or an id on two rows, is a row error. Definitions absent
         *     from the file are left alone.
         *
         *     Each row gets the checks of the JSON create or replace (the body
         *     schema, templates and expressions, event types, choice identifiers,
         *     the group of the league, the name unique in the league without regard
         *     to case), rows taken in file order as if sent one after the other: a
         *     name an earlier row gives up is free, two rows claiming one name is an
         *     error of the later one. Cells read as the export writes them: the `'`
         *     it puts before a formula start is removed, JSON columns are JSON,
         *     booleans `true`/`false`, and an empty cell is what leaving the field
         *     out (or null) of a JSON replace is; `is_archived` empty keeps the flag.
         *     `id`, `league` and the fields a create requires are required columns;
         *     another column the file lacks keeps the stored value (the default on
         *     a create); unknown columns refuse the file. A row's number is the line
         *     it starts on (the header is line 1). Rows equal to the stored
         *     definition are listed as `unchanged` and not written.
         *
         *     `dry_run` (default true) only reports what would happen. With
         *     `dry_run=false` every create and update is applied in one
         *     transaction, and a single row error refuses the whole import with 400
         *     and the same preview body, as does a name taken by another request
         *     while the import runs. A file that cannot be read as CSV, is empty,
         *     lacks required columns, has unknown ones or exceeds a limit gives 400
         *     with a detail (the `errors` list names the row or column where there
         *     is one); a header row alone is an empty import. `errors` lists the
         *     first 100 problems in file order, `error_count` counts them all. Updating a definition
         *     never rewrites the snapshots of issuances already made from it.
         */
        post: operations["importQuestionDefinitions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a league's in-game definitions
         * @description Summaries ordered by name. Archived definitions are left out unless
         *     `include_inactive=true`. `q` matches case-insensitively as a
         *     substring of the name or the id. Date ranges are from inclusive and
         *     to exclusive, and each pair must be given together (400 otherwise).
         */
        get: operations["listQuestionDefinitions"];
        put?: never;
        /**
         * [Admin] Create an in-game definition
         * @description Names are unique within a league (case-insensitive; 409). Templates and
         *     expressions are compiled on save: one that does not compile gives 400
         *     naming the field. `group_id` must be a group of the same league (400).
         */
        post: operations["createQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/{definition_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        /** Get an in-game definition */
        get: operations["getQuestionDefinition"];
        /**
         * [Admin] Replace an in-game definition
         * @description Full replace of the editable fields (the same body as create); fields
         *     left out take their defaults. The league, id, archive state and
         *     timestamps are server-managed. Open issuances keep their snapshot.
         */
        put: operations["replaceQuestionDefinition"];
        post?: never;
        /**
         * [Admin] Delete an in-game definition
         * @description Only a definition that no issuance and no sponsorship slot references
         *     can be deleted; otherwise 409 with a detail that states the counts and
         *     advises archiving instead. Deleting scrubs the id from the league's
         *     and every match's allowlist.
         */
        delete: operations["deleteQuestionDefinition"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/{definition_id}/clone": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Clone an in-game definition
         * @description Copies the definition into the same league under `name` (default:
         *     the original name followed by ` (copy)`). The copy is not archived.
         *     An empty or blank name gives 400; a name taken in the league 409.
         */
        post: operations["cloneQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/{definition_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Archive an in-game definition
         * @description Sets `is_archived=true`; the definition is hidden from the default list and never issued. `is_active` is unchanged. Idempotent.
         */
        post: operations["archiveQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-definitions/{definition_id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Un-archive an in-game definition
         * @description Sets `is_archived=false`; the definition reappears in the list. `is_active` is unchanged. Idempotent.
         */
        post: operations["activateQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] Export every Match question definition as CSV
         * @description Every Match question definition of every league, inactive ones
         *     included, ordered by league and name; the live fields plus `league`,
         *     JSON fields as JSON strings, formula-safe as in the in-game export.
         */
        get: operations["exportMatchQuestionDefinitions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Import Match question definitions from CSV
         * @description Same rules as the in-game import (blank id creates, unknown id is a row error, `dry_run` default true, all-or-nothing apply, same limits).
         */
        post: operations["importMatchQuestionDefinitions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a league's Match question definitions
         * @description Ordered by name. Only active definitions unless
         *     `include_inactive=true`. Same `q`, `is_pivotal_moment` and
         *     date-range filters as the in-game list.
         */
        get: operations["listMatchQuestionDefinitions"];
        put?: never;
        /** [Admin] Create a Match question definition */
        post: operations["createMatchQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions/{definition_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        /** Get a Match question definition */
        get: operations["getMatchQuestionDefinition"];
        /** [Admin] Replace a Match question definition */
        put: operations["replaceMatchQuestionDefinition"];
        post?: never;
        /**
         * [Admin] Delete a Match question definition
         * @description 204 when no Match question issuance references it; otherwise 409 with the count, advising archiving. Deleting scrubs the id from the league's and every match's allowlist.
         */
        delete: operations["deleteMatchQuestionDefinition"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions/{definition_id}/clone": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Clone a Match question definition
         * @description Default name is the original name followed by ` (copy)`; an empty name gives 400, a taken one 409.
         */
        post: operations["cloneMatchQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions/{definition_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Archive a Match question definition
         * @description Sets `is_active=false`; the definition is no longer issued. Idempotent.
         */
        post: operations["archiveMatchQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-question-definitions/{definition_id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Activate a Match question definition
         * @description Sets `is_active=true`; the definition may be issued again. Idempotent.
         */
        post: operations["activateMatchQuestionDefinition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] List a league's question groups
         * @description Ordered by slug. An unsupported league slug gives 400 naming it; a supported league missing from this database gives 404.
         */
        get: operations["listQuestionGroups"];
        put?: never;
        /**
         * [Admin] Create a question group
         * @description `slug`: 1 to 64 characters of lowercase letters, digits, `-` and `_`,
         *     starting with a letter or digit (400 otherwise), unique within the
         *     league (409), and immutable afterwards. `period_distribution` maps the
         *     league sport's period keys to non-negative integers (400 otherwise).
         */
        post: operations["createQuestionGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-groups/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] Export every question group as CSV
         * @description Every group of every league, ordered by league and slug, with a `league` column; JSON fields as JSON strings, formula-safe.
         */
        get: operations["exportQuestionGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-groups/{group_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Question group id. */
                group_id: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        /** [Admin] Get a question group */
        get: operations["getQuestionGroup"];
        put?: never;
        post?: never;
        /**
         * [Admin] Delete a question group
         * @description Refused with 409 (stating the count) while definitions of either kind (in-game and Match) reference the group.
         */
        delete: operations["deleteQuestionGroup"];
        options?: never;
        head?: never;
        /**
         * [Admin] Update a question group
         * @description Partial update; omitted fields are unchanged and `null` clears an override. `slug` may be sent only with its current value (400 otherwise).
         */
        patch: operations["updateQuestionGroup"];
        trace?: never;
    };
    "/api/leagues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List leagues with their question defaults
         * @description Every league the service supports, ordered by slug.
         */
        get: operations["listLeagues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leagues/{league_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        /** Get a league */
        get: operations["getLeague"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * [Admin] Update a league's question defaults
         * @description Partial update: omitted fields are unchanged. A
         *     `default_question_period_distribution` that is not an object mapping
         *     the sport's period keys to non-negative integers gives 400. Allowlist
         *     ids must be definitions of this league (400).
         *
         *     The capacity rule of question sponsorships (slot count at most the
         *     match's `question_max_count`) holds here too: lowering
         *     `default_question_max_count` below the slots already placed on a
         *     match that uses the league default (no `question_max_count` of its
         *     own) and is not over yet (not `ended`, `closed` or `cancelled`), or
         *     below a question number one of its slots targets, gives 409 naming
         *     how many matches and one of them. Remove those slots, or give those
         *     matches their own `question_max_count`, first.
         */
        patch: operations["updateLeague"];
        trace?: never;
    };
    "/api/leagues/{league_id}/question-inheritance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Inspect how question settings are inherited in a league
         * @description Read-only. League defaults, the groups, the definitions of `kind`
         *     (restricted to `definition_id` when given) and, per definition, each
         *     effective setting with the level it comes from (`league`, `group` or
         *     `definition`).
         */
        get: operations["getLeagueQuestionInheritance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List matches with question totals
         * @description Ordered by `scheduled`, then id. Without `scheduled_from` and
         *     `scheduled_to` the range is the current UTC calendar day, except with
         *     `followed=true`, which lists every match the caller follows. The two
         *     range bounds are given together (400 otherwise); from is inclusive,
         *     to exclusive. `followed` (true or false) needs a valid key (401
         *     otherwise). Totals per row: `sponsored_question_count`,
         *     `question_issuance_count` (regular questions) and
         *     `pivotal_moment_issuance_count` (in-game issuances of every status).
         *     At most 1,000 rows.
         *
         *     Test matches (`is_test=true`, clones of closed matches that replay a
         *     known outcome) are unlisted: admins see them all; any other caller
         *     sees a test match only while following it, and anonymous callers
         *     never see one (with `is_test=true` they get the test matches they
         *     follow, or none). A player follows a test match by its id, which the
         *     operator who cloned it hands to the testers.
         *
         *     Admins get each match in the operator view (`OperatorMatch`), every
         *     other caller in the player view (`PlayerMatch`); `view` says which.
         */
        get: operations["listMatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * One match
         * @description Open; with a key, `is_followed` says whether the caller follows the
         *     match (null without one). Players and anonymous callers get the
         *     player view (`PlayerMatch`); admins get the operator view with the
         *     match's question sponsorship slots (`MatchDetail`); `view` says
         *     which. A test match is found only by admins and by players who follow
         *     it (404 for anyone else, as for an unknown id): test matches are
         *     unlisted, see `GET /api/matches`. A key that does not authenticate
         *     counts as none (an anonymous caller), as in `GET /api/matches`:
         *     401 is declared, as for every operation that accepts a key, but this
         *     one never answers it.
         */
        get: operations["getMatch"];
        put?: never;
        post?: never;
        /**
         * [Admin] Delete a test match
         * @description Deletes a test match with everything that hangs off it (listeners,
         *     issuances, answers, follows, slots). A real match cannot be deleted:
         *     409 with a detail saying so.
         */
        delete: operations["deleteMatch"];
        options?: never;
        head?: never;
        /**
         * [Admin] Update match overrides, allowlists, sponsor and flags
         * @description Partial update; omitted fields are unchanged and `null` clears an
         *     override (the league default applies again). Allowlist ids must be
         *     definitions of the match's league (400). An unknown
         *     `sponsor_brand_id` gives 404. A `question_max_count` (or, when
         *     cleared, the league default) below the number of question
         *     sponsorship slots on the match, or below a question number a slot
         *     targets, gives 409. `feed_url` attaches the provider's live feed
         *     (an `http` or `https` URL of at most 2,048 characters, without a
         *     user name or password in it) and `null` detaches it; 400 with a
         *     detail saying what is wrong otherwise. An operator's choice stands:
         *     once set here (a URL, or `null`), neither a schedule sync's feed
         *     URL template nor `FEED_URL_TEMPLATE` attaches another. Unless the service allows
         *     private feed addresses (`FEED_ALLOW_PRIVATE_ADDRESSES`, on by default
         *     only with `APP_ENV` `development` or `test`, where the demo and the
         *     tests serve feeds on loopback), the host must not be a local,
         *     private or reserved address or a name of this machine or network
         *     (`localhost`, `*.local`, `*.internal`, single labels): 400. The
         *     listener checks the address it connects to again. A listener already
         *     running keeps the feed it started with. Returns the detail view.
         */
        patch: operations["updateMatch"];
        trace?: never;
    };
    "/api/matches/{match_id}/follow": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow a match
         * @description Idempotent: following a match already followed returns the same
         *     follow. A new follow of a real match takes one slot of the caller's
         *     daily quota (`match_daily_follow_count`, counted per calendar day of
         *     `match_follow_timezone`, UTC when blank); test matches take none, and
         *     re-following a match whose follow was kept as a spent row takes none
         *     (it reactivates that row). 409 when the quota is used up or the match
         *     is closed or cancelled (a match already followed still answers 200).
         *     A test match is followed by its id (it is unlisted until followed,
         *     see `GET /api/matches`); points scored on it count in no totals (see
         *     `UserPoints`).
         */
        post: operations["followMatch"];
        /**
         * Unfollow a match
         * @description Before the match starts (or for a test match) the follow is deleted
         *     and its quota slot refunded to the day it was taken on
         *     (`refunded=true`). After a real match has started the follow is kept
         *     as a spent row (`following=false`) with no refund. A match has
         *     started once `started_at` is set, its status is `live`, `break`,
         *     `ended` or `closed`, or it is `scheduled` and its kick-off time has
         *     passed; `postponed` and `cancelled` matches have not. 404 when the
         *     match does not exist or the caller does not follow it (a spent row
         *     is not a follow).
         */
        delete: operations["unfollowMatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/question-issuances": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * Question issuances of a match
         * @description In-game issuances by default; `kind=match` gives the match's Match
         *     (pre-game) questions, `kind=all` both kinds. Ordered by issue time,
         *     then id. Admins get every status (open, locked, resolved, voided,
         *     revoked); other users get resolved and voided ones only (open and
         *     locked questions are live play, see `GET /api/question-answers/open`;
         *     revoked ones were withdrawn by an operator and never had an outcome).
         */
        get: operations["listMatchQuestionIssuances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/resolutions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * The match's resolutions after a cursor (what the live stream sent, to catch up)
         * @description The match's settled questions (resolved, voided or revoked; in-game
         *     and Match questions) whose `resolution_seq` is above `after`, in
         *     that order, each exactly as the live stream's `resolution` message
         *     gives it, with the caller's own answer, outcome and points (or
         *     `answer: null`).
         *
         *     A match's settlements are numbered 1, 2, 3, ... in the order they
         *     were committed, with no gaps; every `resolution` message carries its
         *     number, and the stream's snapshots (`open_questions.matches`) the
         *     match's latest. So a client knows exactly what it holds: its cursor
         *     of a match is the highest number up to which it has them all. After
         *     any gap (a reconnect, a `resync`, a number skipped) it reads after
         *     its cursor, and again after the last one it got while a page comes
         *     back full (`limit`). Any player may read any match's; following it
         *     is not needed.
         */
        get: operations["listMatchResolutions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/question-inheritance": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Inspect effective question settings of a match
         * @description As the league inspection, plus the match's overrides and allowlists
         *     (sources may be `match`), and for every issuance of `kind` on the
         *     match its decision trace: each gate it passed, in order.
         */
        get: operations["getMatchQuestionInheritance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/question-issuance-denials": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Blocked issuance attempts of a match
         * @description Attempts whose trigger matched but which a gate closed, newest first,
         *     a page at a time (`limit`, `offset`); `denial_count` is how many
         *     match the filter in all, so a client knows when there are more.
         *     Triggers that did not match are silent misses and are not recorded.
         *     `failed_step` is the id of the first closed gate:
         *     `listener_running`, `definition_allowed`, `match_cap`,
         *     `period_quota`, `min_interval`, `group_lane`, `probability`,
         *     `render`.
         */
        get: operations["listMatchQuestionIssuanceDenials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/event-timeline": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Event timeline of a match with question markers
         * @description The stream events the match's listeners consumed (latest version of
         *     each provider event, deletions left out) in feed order, and a marker
         *     for every question issued, resolved, voided or revoked on the match,
         *     placed at the event that caused it. `types` narrows the events (not
         *     the markers).
         *
         *     Points: the messages of every listener of the match (a restarted or
         *     taken-over listener included) are collapsed by `provider_event_id`.
         *     The latest version is the message with the highest `seq` (the later
         *     arrival on a tie); an event whose latest version is a `delete` is
         *     left out. A point's `seq` is where the event first appeared in the
         *     feed, its other fields are those of its latest version, and points
         *     are ordered by that `seq`. `types` matches the latest version's type.
         *
         *     Markers (in-game issuances only): `issued` at the triggering message
         *     (`seq` = its feed position, the issuance's period and clock, `at` =
         *     issue time); when the issuance ended, `resolved`, `voided` or
         *     `revoked` at the message that ended it (`seq` null when no event did,
         *     as for a revocation), with the period and clock of the resolving
         *     event when the timeline holds it (null otherwise), `at` = the end
         *     time and the correct answer. Markers are sorted by `seq` (those
         *     without one last), then `at`, an issue before its end.
         */
        get: operations["getMatchEventTimeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/clone": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Clone a closed match into a test match
         * @description Creates a test match (`is_test=true`, scheduled now) from a closed
         *     match: question settings, allowlists, `sponsor_brand_id` and question
         *     sponsorships are copied, the caller is recorded as creator and
         *     auto-followed (no quota), and a listener is enqueued that replays the
         *     original's recorded events at `speed` (default 10). With `start:
         *     paused` nothing is enqueued: change the test match's settings first,
         *     then `POST .../start-listener` with the speed you want. The test
         *     match is unlisted: other admins see it in `GET /api/matches`, players
         *     only once they follow it by its id; points scored on it count in no
         *     player's totals. 409 when the match is not closed or has no recorded
         *     events. Unavailable when the service runs with `APP_ENV=main`
         *     (production): 403 with a detail saying so.
         */
        post: operations["cloneMatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/start-listener": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Enqueue a listener for a test match
         * @description Enqueues a listener that replays the events the test match was
         *     cloned from (any process claims it). Idempotent while a listener of
         *     the match is queued or running: that one is returned, unless the
         *     request names another `speed` (409: stop it first, or restart). With
         *     `restart: true` the replay starts again from the beginning: the
         *     active listener stops, its open questions are revoked, everything the
         *     earlier runs left on the test match goes (its questions with their
         *     answers, denials, listeners and recordings; sponsorship slots are
         *     free again) and the match is set back to before kick-off (status
         *     `scheduled`, kick-off now, no score, clock, period, result or state
         *     store), keeping its settings, sponsor and followers; then a new
         *     listener is enqueued. 409 for a real match (real matches are
         *     dispatched automatically), a test match with nothing to replay, or one
         *     already played through without `restart`. Unavailable with
         *     `APP_ENV=main`: 403.
         */
        post: operations["startMatchListener"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/matches/{match_id}/stop-listener": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [Admin] Stop the match listeners and close open rows
         * @description Stops every queued or running listener of the match (a queued one is
         *     revoked, a running one stopped), and revokes the match's open
         *     in-game issuances (answers to them score nothing). A test match in
         *     play (`live`, `break`) ends (`ended`, no result; followers get
         *     `match_closed`): nothing else would end it, and
         *     `start-listener` replays it again. A real match keeps its status
         *     (its feed may come back; its schedule closes it). Idempotent.
         */
        post: operations["stopMatchListener"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-listeners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] Listeners grouped by match
         * @description Matches of a league whose kick-off lies in the UTC range (from
         *     inclusive, to exclusive; both or neither, default the current UTC
         *     day), each with its listeners, newest first. Matches without
         *     listeners are included (an empty list) so operators see what has not
         *     been dispatched. At most 1,000 matches, earliest kick-off first (as
         *     `GET /api/matches`): narrow the range to see later ones.
         */
        get: operations["listMatchListeners"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-listeners/{listener_id}/log": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Listener id. */
                listener_id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Text log of a listener
         * @description The listener's log lines, oldest first; `after` returns only lines with a higher `line_no` (for polling).
         */
        get: operations["getMatchListenerLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-listeners/{listener_id}/log/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Listener id. */
                listener_id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Download the text log of a listener
         * @description The whole log, oldest first, as a `text/plain` attachment named
         *     `listener-<first 8 characters of the id>.log`: one line per entry,
         *     `<ISO 8601 time> <LEVEL> <message>` (line breaks inside a message
         *     written as `\n`).
         */
        get: operations["downloadMatchListenerLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/match-listeners/{listener_id}/events/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Listener id. */
                listener_id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] Download the event recording of a listener
         * @description Every feed message the listener consumed, in the order it consumed them (a misbehaving feed's seqs may jump, repeat or restart; two messages sharing a seq are both there), as normalized events (updates and deletes included), as a JSON attachment named `listener-<first 8 characters of the id>-events.json`.
         */
        get: operations["downloadMatchListenerEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's profile */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update the caller's profile
         * @description Only `display_name`, `email`, the name fields, `postal_address`,
         *     `date_of_birth`, `match_follow_timezone`, `notify_on_issuance` and
         *     `notify_on_resolve` can be set; any other field (such as `is_admin`)
         *     is rejected with 422. A taken email gives 409; a new email is
         *     unverified (`email_verified` false) until its verification link,
         *     mailed to it at once, is used (counted against the mail budgets:
         *     429 changes nothing). `match_follow_timezone`
         *     must be an IANA zone name (422 otherwise); blank or null means UTC.
         *     A `display_name` that breaks its rules (see `DisplayName`) gives 400,
         *     one another player is shown by 409; changing it while an admin has
         *     locked it (`display_name_locked`) gives 409 and changes nothing.
         */
        patch: operations["updateCurrentUser"];
        trace?: never;
    };
    "/api/users/me/data-export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a copy of the caller's data
         * @description Everything the service keeps about the caller, in one JSON document
         *     (the right of access): their profile, every answer with its outcome
         *     and points, their points, follows, private groups, feedback, push
         *     devices and leaderboard positions. Sent as an attachment
         *     (`Content-Disposition`), so a browser saves it as a file.
         */
        get: operations["exportCurrentUserData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/deletion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete the caller's account
         * @description Deletes the caller's account for good (in-app deletion, the right to
         *     erasure) once the password is confirmed (403 `account.password_mismatch`
         *     when it is wrong; attempts count against the sign-in budgets, 429).
         *     What goes: every personal field (username, display name, email,
         *     names, postal address, date of birth, time zone, password), every API
         *     key (open stream sockets close), operator-UI sessions, follows and
         *     follow quotas, push devices and delivery records, feedback, private
         *     group memberships (an owned group passes to its earliest member, or
         *     goes with its last one) and mailed links; its names are free at once
         *     and the email can register again. What stays, anonymised: the
         *     account's id with its answers, so other players' history keeps its
         *     meaning (how everyone answered, `crowd`, still counts them) and
         *     scores stay auditable. The account is on no leaderboard any more:
         *     every board ranks the others as if it had never played (as for a
         *     deactivated account). An admin account cannot delete itself (409):
         *     another admin removes its admin flag first.
         */
        post: operations["deleteCurrentUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's points
         * @description All-time and per-period totals (see `UserPoints`).
         */
        get: operations["getCurrentUserPoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register or refresh a push device
         * @description Registers a device of the caller under its client-chosen `device_id`
         *     (201), or refreshes the device already registered under that id
         *     (200). A `web` device carries its Web Push `subscription`; `ios` and
         *     `android` devices carry their provider `token` (400 when the one the
         *     platform needs is missing).
         */
        post: operations["registerCurrentUserDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/devices/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client-chosen device id used at registration. */
                device_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a push device
         * @description Idempotent; removing a device that is not registered (or belongs to someone else) also answers 204 and changes nothing.
         */
        delete: operations["deleteCurrentUserDevice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] List users
         * @description `q` matches case-insensitively as a substring of username, display
         *     name, email, first or last name, or the id. `user_count` is the
         *     number of users matching the filters (before `offset` and `limit`).
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * [Admin] Create a user
         * @description Creates an active user (admin or not). A taken username or email gives 409.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /** [Admin] Get a user */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * [Admin] Deactivate a user
         * @description Soft-deactivates the account (`is_active=false`; the row and its
         *     history stay) and revokes all its keys, so its login then answers
         *     401. Idempotent. Deactivating yourself gives 409.
         */
        delete: operations["deactivateUser"];
        options?: never;
        head?: never;
        /**
         * [Admin] Update a user
         * @description Partial update. Setting `is_active=false` deactivates the account
         *     and revokes all its keys; a new `password` also revokes them. An
         *     admin cannot remove their own admin flag or deactivate themselves
         *     (409), so the service is never left without the admin doing it.
         *     `display_name` follows the same rules as the player's own (400);
         *     an admin may set it whether or not it is locked, and setting it
         *     locks it (`display_name_locked=true`) unless the same request says
         *     `display_name_locked: false`. `hidden_from_leaderboards` takes the
         *     user off every leaderboard (cheating) without touching their history.
         *     An account its player deleted (`deleted_at`) cannot be changed (409).
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/users/{user_id}/points": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /** [Admin] A user's points */
        get: operations["getUserPoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{user_id}/question-answers": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] A user's answer history
         * @description The same rows and rules as the caller's own history (`GET /api/question-answers`), paged the same way.
         */
        get: operations["listUserQuestionAnswers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/push-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] Push notification settings
         * @description The stored settings (gates and message templates) in force, with the code defaults beside them.
         */
        get: operations["getPushSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * [Admin] Update push notification settings
         * @description Deep partial update of `stored_settings`: omitted fields are
         *     unchanged. Templates are Liquid and are compiled on save; one that
         *     does not compile gives 400 naming it.
         */
        patch: operations["updatePushSettings"];
        trace?: never;
    };
    "/api/push-settings/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** [Admin] Restore the code defaults of the push settings */
        post: operations["resetPushSettings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/push-delivery-attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [Admin] Push delivery attempts
         * @description Newest first. With `user_id` or `email` (case-insensitive exact
         *     match), the attempts of that user; 404 when no user matches. Without
         *     either, the latest attempts of everyone.
         */
        get: operations["listPushDeliveryAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-answers/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's open questions
         * @description Unresolved open issuances of both kinds on matches the caller
         *     follows, on matches in a live status (`live`, `break`) or scheduled
         *     within the sliding window from 12 hours ago to 14 days ahead (UTC;
         *     the longest `issue_lead_seconds` of a Match question, so every
         *     question the live stream delivers is listed here too), ordered by
         *     closing time. In-game questions disappear when their answer window has
         *     passed; Match questions when they lock at kick-off (the match's
         *     scheduled time, which follows a rescheduling, or the match starting
         *     earlier). `crowd` (how everyone answered so far) is null until the
         *     caller has answered the question, so nobody copies the crowd.
         */
        get: operations["listOpenQuestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/question-answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's answer history
         * @description Both kinds, newest answer first. With `limit`, locked pending Match
         *     answers (kick-off passed, not yet resolved) come first and are not
         *     counted toward the limit; the `limit` newest other answers follow.
         *     Pages: `offset` skips that many of the other answers, and the locked
         *     pending ones are listed on the first page only (offset 0), so paging
         *     with `limit` and `offset` lists every answer once. `match_id`
         *     restricts to one match.
         */
        get: operations["listQuestionAnswers"];
        /**
         * Answer a question (create or replace)
         * @description One answer per user and issuance; sending another replaces it (200),
         *     the first creates it (201). 400 when the choice is not one of the
         *     issuance's; 403 when the caller has a daily follow quota and does not
         *     follow the match (in-game questions always need a follow); 404 unknown
         *     issuance; 409 already resolved (or voided, or revoked); 410 when the
         *     answer window has expired (Match questions: locked at kick-off).
         */
        put: operations["upsertQuestionAnswer"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user-feedback/form": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The feedback form catalog */
        get: operations["getUserFeedbackForm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user-feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List feedback
         * @description Newest first. A player sees only their own rows (the `user_id`
         *     filter is ignored for them; the other filters apply); an admin sees
         *     everyone's and may filter.
         *     `feedback_count` is the number of rows matching the filters.
         */
        get: operations["listUserFeedback"];
        put?: never;
        /**
         * File feedback on a resolved answer
         * @description The subject must be one of the caller's own answers, already resolved
         *     (or voided); otherwise 404 (not the caller's or unknown) or 409 (not
         *     resolved yet). The topic must be one of the subject type's topics and
         *     the description at most `description_max_length` characters (400
         *     otherwise). The answer must be of the subject type's `history_kind`
         *     (400 otherwise). The same answer takes feedback on several topics, but
         *     each topic once (409 for a repeat). The description is trimmed, its
         *     characters counted as Unicode code points, and a blank one is stored
         *     as null.
         */
        post: operations["createUserFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user-feedback/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Feedback id. */
                id: string;
            };
            cookie?: never;
        };
        /**
         * Get one feedback row (owner or admin)
         * @description Another player's row answers 404, so ids of others' feedback are not confirmed.
         */
        get: operations["getUserFeedback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leaderboards/overall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole game's leaderboard
         * @description Every player's points over every league, all time or in a calendar
         *     period (see `Leaderboard` for what counts, the ranking and the
         *     periods). Ranked by points, or by current or best streak
         *     (`rank_by`: the streak board). Open to read; with a key the answer
         *     also carries the caller's own row and rank (`me`), even when it is
         *     not on the page.
         */
        get: operations["getOverallLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leaderboards/leagues/{league_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        /**
         * A league's leaderboard
         * @description Points scored on the league's matches, all time or in a calendar
         *     period (see `Leaderboard`), ranked by points or by streak
         *     (`rank_by`). Unknown league 404. Open to read; with a key the answer
         *     also carries the caller's own row and rank (`me`).
         */
        get: operations["getLeagueLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leaderboards/matches/{match_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        /**
         * A match's leaderboard
         * @description Points scored on one match's questions (in-game and Match
         *     questions), live while it is played: each question counts once its
         *     settlement reaches the boards, within seconds after it settles (a
         *     match's board takes it first; see `Leaderboard`). A match's board has no calendar periods (`period` is
         *     always `all_time`): a match is played within hours. A test match
         *     (`is_test=true`) has an empty board, since test matches never count.
         *     Unknown match 404. Open to read; with a key the answer also carries
         *     the caller's own row and rank (`me`).
         */
        get: operations["getMatchLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/player-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's private groups
         * @description Every group the caller belongs to (owned ones included), by name, then id.
         */
        get: operations["listPlayerGroups"];
        put?: never;
        /**
         * Create a private group
         * @description Needs a verified email (403 `account.email_unverified` otherwise).
         *     Creates a group owned by the caller, who is its first member, with a
         *     new invite code. A player belongs to at most `PLAYER_GROUPS_PER_USER`
         *     groups (20 by default, owned ones included): one more answers 409
         *     naming the limit. A name that breaks its rules (see
         *     `PlayerGroupName`) answers 400.
         */
        post: operations["createPlayerGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/player-groups/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Join a private group with its invite code
         * @description Needs a verified email (403 `account.email_unverified` otherwise).
         *     Joins the group whose invite code this is (200 with the group;
         *     joining a group one is already in changes nothing and answers 200
         *     too). Codes are compared without regard to case, spaces and dashes.
         *     An unknown (or replaced) code answers 404. A full group
         *     (`PLAYER_GROUP_MAX_MEMBERS`, 50 by default) or a caller already in
         *     `PLAYER_GROUPS_PER_USER` groups answers 409 naming the limit.
         *
         *     Attempts are throttled as sign-in is, since codes can be guessed:
         *     every attempt counts, before the code is looked up, against the
         *     caller's budget (`GROUP_JOIN_MAX_ATTEMPTS`, 10 per 15 minutes) and
         *     the client address's (`GROUP_JOIN_MAX_ATTEMPTS_PER_IP`, 100); past
         *     either, 429 with `Retry-After`, the code unchecked. A join that
         *     succeeds gives its attempt back, so only failed guesses use them up.
         */
        post: operations["joinPlayerGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/player-groups/{player_group_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        /**
         * A private group and its members
         * @description Members only; to anyone else the group does not exist (404).
         */
        get: operations["getPlayerGroup"];
        put?: never;
        post?: never;
        /**
         * Delete a private group (owner)
         * @description The owner only (403 for other members, 404 for anyone else). Members and their scores are untouched; only the group goes.
         */
        delete: operations["deletePlayerGroup"];
        options?: never;
        head?: never;
        /**
         * Rename a private group (owner)
         * @description The owner only (403 for other members, 404 for anyone else). 400 for a name that breaks its rules.
         */
        patch: operations["renamePlayerGroup"];
        trace?: never;
    };
    "/api/player-groups/{player_group_id}/invite-code": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the invite code (owner)
         * @description A new code; the old one stops working at once (a removed member cannot come back with it). The owner only (403 for other members, 404 for anyone else).
         */
        post: operations["replacePlayerGroupInviteCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/player-groups/{player_group_id}/leave": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Leave a private group
         * @description The caller leaves (404 when not a member). When the owner leaves,
         *     the member who joined earliest becomes the owner; when nobody is
         *     left, the group is deleted.
         */
        post: operations["leavePlayerGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/player-groups/{player_group_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member (owner)
         * @description The owner removes a member (204; 404 when that user is not a
         *     member). Not the owner themselves (409: leave instead). Other members
         *     get 403, anyone else 404. A removed member can join again with the
         *     code until the owner replaces it.
         */
        delete: operations["removePlayerGroupMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/player-groups/{player_group_id}/leaderboard": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        /**
         * A private group's leaderboard
         * @description The group's members ranked among themselves on a board of the whole
         *     game (`scope=overall`, the default), a league (`scope=league` with
         *     `league`) or a match (`scope=match` with `match_id`; all time only),
         *     all time or in a period: the same rows, figures, ranking and periods
         *     as the public boards (see `Leaderboard`), ranks counted within the
         *     group. Members with nothing on that board yet are not listed. Every
         *     member on the board is listed (a group has at most
         *     `PLAYER_GROUP_MAX_MEMBERS`). Members only (404 for anyone else). A
         *     scope without its `league` or `match_id`, or with the other one, is a
         *     400; so is a period other than `all_time` for a match.
         */
        get: operations["getPlayerGroupLeaderboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/leaderboard-positions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's leaderboard positions
         * @description Where the caller stands, in one call (a home screen's ranks): their
         *     row and rank on the whole game's board and on each league's they are
         *     on, all time and in their current day, week and month (in their
         *     `match_follow_timezone`), then on the boards of the 20 matches they
         *     played last (newest first); the same read as an operator's
         *     `GET /api/users/{user_id}/leaderboard-positions`. Empty while the
         *     caller is hidden from leaderboards (`hidden_from_leaderboards`) or
         *     before any of their answers has settled. Private groups' boards are
         *     read per group (`GET /api/player-groups/{player_group_id}/leaderboard`).
         */
        get: operations["getCurrentUserLeaderboardPositions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{user_id}/leaderboard-positions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        /**
         * [Admin] A user's leaderboard positions
         * @description Where the user stands: their row and rank on the whole game's board
         *     and on each league's they are on, all time and in their current day,
         *     week and month (in their `match_follow_timezone`), then on the boards
         *     of the 20 matches they played last (newest first). Empty for a user
         *     hidden from leaderboards or deactivated (they are on no board; the
         *     flags say why). Unknown user 404.
         */
        get: operations["getUserLeaderboardPositions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A user's row on one board, with the board. */
        LeaderboardPosition: {
            /**
             * @example league
             * @enum {string}
             */
            scope: "overall" | "league" | "match";
            /**
             * Format: uuid
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            league_id: string | null;
            /**
             * Format: uuid
             * @example null
             */
            match_id: string | null;
            /**
             * @example all_time
             * @enum {string}
             */
            period: "all_time" | "day" | "week" | "month";
            /**
             * Format: date
             * @description First day of the period (in the user's zone); null for all time.
             * @example null
             */
            period_start: string | null;
            /**
             * @description Players on the board.
             * @example 2
             */
            player_count: number;
            entry: components["schemas"]["LeaderboardEntry"];
        };
        UserLeaderboardPositions: {
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            user_id: string;
            /** @example false */
            hidden_from_leaderboards: boolean;
            /** @example true */
            is_active: boolean;
            /**
             * @description The zone the current periods are the user's own in.
             * @example Europe/Berlin
             */
            timezone: string;
            /** @description The whole game first, then leagues, then matches (newest first); all time, then day, week and month. */
            positions: components["schemas"]["LeaderboardPosition"][];
        };
        /**
         * @description Runs of white space become one space and the ends are trimmed; then
         *     1 to 60 characters, with no control or invisible formatting
         *     characters (400 otherwise). Names need not be unique.
         * @example Office World Cup
         */
        PlayerGroupName: string;
        PlayerGroupCreate: {
            name: components["schemas"]["PlayerGroupName"];
        };
        PlayerGroupRename: {
            name: components["schemas"]["PlayerGroupName"];
        };
        PlayerGroupJoin: {
            /**
             * @description The code as the owner shared it; case, spaces and dashes do not matter.
             * @example K7QX-2M9P-ZA
             */
            invite_code: string;
        };
        /** @description A private group of players, as its members see it. */
        PlayerGroupSummary: {
            /**
             * Format: uuid
             * @example 5d7f9b1c-3e5a-4c7e-9f1b-3d5f7a9c1e3b
             */
            id: string;
            /** @example Office World Cup */
            name: string;
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            owner_id: string;
            /**
             * @description The caller owns the group.
             * @example true
             */
            is_owner: boolean;
            /**
             * @description What others join with (`POST /api/player-groups/join`); every member sees it and may pass it on. 10 characters of `0-9 A-Z` without `I L O U`, shown in groups of 4, 4 and 2.
             * @example K7QX-2M9P-ZA
             */
            invite_code: string;
            /** @example 2 */
            member_count: number;
            /**
             * @description The most members a group may have (`PLAYER_GROUP_MAX_MEMBERS`).
             * @example 50
             */
            max_members: number;
            /**
             * Format: date-time
             * @example 2026-11-19T12:00:00Z
             */
            created_at: string;
        };
        PlayerGroupMember: {
            /**
             * Format: uuid
             * @example 9b2e3f4a-5c6d-4e7f-9081-2b3c4d5e6f70
             */
            user_id: string;
            /**
             * @description The member's `leaderboard_name`.
             * @example carla_k
             */
            display_name: string;
            /** @example false */
            is_owner: boolean;
            /**
             * Format: date-time
             * @example 2026-11-19T12:30:00Z
             */
            joined_at: string;
        };
        /** @description A private group with its members (earliest joined first). */
        PlayerGroup: {
            /**
             * Format: uuid
             * @example 5d7f9b1c-3e5a-4c7e-9f1b-3d5f7a9c1e3b
             */
            id: string;
            /** @example Office World Cup */
            name: string;
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            owner_id: string;
            /**
             * @description The caller owns the group.
             * @example true
             */
            is_owner: boolean;
            /**
             * @description What others join with (`POST /api/player-groups/join`); every member sees it and may pass it on. 10 characters of `0-9 A-Z` without `I L O U`, shown in groups of 4, 4 and 2.
             * @example K7QX-2M9P-ZA
             */
            invite_code: string;
            /** @example 2 */
            member_count: number;
            /**
             * @description The most members a group may have (`PLAYER_GROUP_MAX_MEMBERS`).
             * @example 50
             */
            max_members: number;
            /**
             * Format: date-time
             * @example 2026-11-19T12:00:00Z
             */
            created_at: string;
            members: components["schemas"]["PlayerGroupMember"][];
        };
        /** @description A player's row on a leaderboard. */
        LeaderboardEntry: {
            /**
             * @description Position on the board (1 is first); every player has their own (ties are broken, see `Leaderboard`).
             * @example 1
             */
            rank: number;
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            user_id: string;
            /**
             * @description The player's `leaderboard_name` - their display name, else their username, else `Player` and the first 8 characters of their id; never an email.
             * @example Alice in Goalland
             */
            display_name: string;
            /**
             * @description Points scored in the board's scope and period.
             * @example 120
             */
            points: number;
            /**
             * @description Correct answers.
             * @example 7
             */
            correct_count: number;
            /**
             * @description Settled answers (their question resolved or was voided); answers still pending are not on a board yet.
             * @example 12
             */
            answered_count: number;
            /**
             * @description Correct answers in a row up to the last one settled (an incorrect answer ends a streak, a voided question neither ends nor extends it).
             * @example 1
             */
            current_streak: number;
            /**
             * @description The longest run of correct answers in a row.
             * @example 3
             */
            best_streak: number;
            /**
             * Format: date-time
             * @description When the player reached their points and correct count (the settling of their last correct answer; of their first answer while none is correct). The third ranking key.
             * @example 2026-11-20T19:26:30Z
             */
            reached_at: string;
        };
        /** @description The caller's own row, wherever it ranks; null for anonymous callers and for callers not on the board (nothing scored in it yet, or hidden). */
        NullableLeaderboardEntry: components["schemas"]["LeaderboardEntry"] | components["schemas"]["NullValue"];
        /**
         * @description A page of a leaderboard. **What counts**: every answer scored when
         *     its question settles, exactly the answers `GET /api/users/me/points`
         *     counts - the points fixed at issue for a correct answer, nothing for
         *     an incorrect or voided one. Answers on test matches (`is_test=true`)
         *     count on no board, and deactivated users and users an admin hid
         *     (`hidden_from_leaderboards`) are on no board and take no rank.
         *
         *     **When**: `GET /api/users/me/points` counts an answer as soon as its
         *     question settles. A board takes a settlement shortly after it is
         *     committed (the match's board first, then the all-time boards, then
         *     the day, week and month boards; settlements in the order they were
         *     taken in), so for that moment a board may not have the latest
         *     settlement yet. Once a board has it, a player's row is exactly what
         *     the points endpoint says, and the same read answers the same
         *     wherever the board is served from (the boards' tables, or Redis in
         *     a deployment that has it). A display name changed a moment ago may
         *     take up to a second to show in a board's rows.
         *
         *     **Ranking**: points (more first), then correct answers (more
         *     first), then who reached that points and correct count first
         *     (`reached_at`, earlier first), then the user id (ascending), so
         *     every player has a rank of their own and the order never changes
         *     between two reads unless someone scores. `rank` is the position in
         *     that order. **Streak boards** (`rank_by`): the same board ranked by
         *     `current_streak` (more first) or by `best_streak` (more first), ties
         *     broken by the points ranking above (points, correct answers,
         *     `reached_at`, user id), so again every player has a rank of their
         *     own. A streak is the board's own: on a league's board it counts that
         *     league's answers only, on a day's, week's or month's board that
         *     period's answers only (in the order the boards took the
         *     settlements in), so a period's streak starts again with the period.
         *
         *     **Periods** are the calendar periods of `GET /api/users/me/points`:
         *     a day, a week from Monday, a month, each in the player's
         *     `match_follow_timezone` (UTC when blank). An answer counts in the
         *     period (of its player's zone) in which its question settled, so a
         *     player's row on the board of a day is their `today` figure of the
         *     points endpoint on that day, wherever they live. A period is named
         *     by its first day (`period_start`); the caller's zone (`timezone`)
         *     chooses which period is current, and `starts_at`/`ends_at` are its
         *     bounds in that zone. A player who changes their zone has their
         *     periods counted again in the new one, as the points endpoint does.
         */
        Leaderboard: {
            /**
             * @description The whole game, a league or a match.
             * @example overall
             * @enum {string}
             */
            scope: "overall" | "league" | "match";
            /**
             * @description What the rows are ranked by (the `rank_by` asked for; `points` by default).
             * @example points
             * @enum {string}
             */
            rank_by: "points" | "current_streak" | "best_streak";
            /**
             * Format: uuid
             * @description A private group's board (its members ranked among themselves); null on the public boards.
             * @example null
             */
            group_id: string | null;
            /**
             * Format: uuid
             * @description The league of a league's or a match's board.
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            league_id: string | null;
            /**
             * Format: uuid
             * @description The match of a match's board.
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string | null;
            /**
             * @example week
             * @enum {string}
             */
            period: "all_time" | "day" | "week" | "month";
            /**
             * Format: date
             * @description First day of the period (a Monday for a week, the 1st for a month); null for all time.
             * @example 2026-11-16
             */
            period_start: string | null;
            /**
             * Format: date-time
             * @description Where the period starts in `timezone`; null for all time.
             * @example 2026-11-15T23:00:00Z
             */
            starts_at: string | null;
            /**
             * Format: date-time
             * @description Where the period ends (exclusive) in `timezone`; null for all time.
             * @example 2026-11-22T23:00:00Z
             */
            ends_at: string | null;
            /**
             * @description The zone the current period was chosen in - the caller's, UTC for anonymous callers.
             * @example Europe/Berlin
             */
            timezone: string;
            /**
             * @description Players on the board.
             * @example 9311
             */
            player_count: number;
            /** @example 0 */
            offset: number;
            /** @example 20 */
            limit: number;
            /** @description The page, in rank order. */
            rows: components["schemas"]["LeaderboardEntry"][];
            me: components["schemas"]["NullableLeaderboardEntry"];
        };
        /** @description Body of every failure except request validation errors. */
        Error: {
            /**
             * @description What went wrong and, where it helps, what to do next.
             * @example brand not found
             */
            detail: string;
        };
        /** @description Body of 422 answers. */
        ValidationError: {
            detail: components["schemas"]["ValidationErrorItem"][];
        };
        ValidationErrorItem: {
            /**
             * @description Where the problem is, starting with `body`, `query`, `path` or `header`.
             * @example [
             *       "body",
             *       "email"
             *     ]
             */
            loc: (string | number)[];
            /**
             * @description Human-readable message.
             * @example must match format "email"
             */
            msg: string;
            /**
             * @description Machine-readable error type: the failed JSON Schema keyword
             *     (`format`, `maxLength`, ...), `missing`, `extra_forbidden`, or one
             *     of the service's own checks of the request: `json_invalid`,
             *     `content_type`, `content_encoding`, `multipart_invalid`,
             *     `body_incomplete`, `body_invalid`, `nul_character`,
             *     `lone_surrogate`, `percent_encoding`, `too_deep`.
             * @example format
             */
            type: string;
        };
        PasswordResetRequest: {
            /**
             * Format: email
             * @description The account's email (any letter case).
             * @example alice@example.com
             */
            email: string;
        };
        PasswordReset: {
            token: components["schemas"]["MailedToken"];
            password: components["schemas"]["Password"];
        };
        EmailVerification: {
            token: components["schemas"]["MailedToken"];
        };
        /**
         * @description The `token` of a mailed link.
         * @example qpm_Xk3vR9wq2LmN8pZ4tY7uB1cD5eF6gH0jK2lM3nO4pQ5
         */
        MailedToken: string;
        AccountDeletion: {
            /**
             * Format: password
             * @description The account's password, confirming the deletion.
             * @example correct horse battery staple
             */
            password: string;
        };
        /** @description Everything the service keeps about a player. */
        UserDataExport: {
            /**
             * Format: date-time
             * @example 2026-11-20T22:00:00Z
             */
            exported_at: string;
            user: components["schemas"]["User"];
            points: components["schemas"]["UserPoints"];
            /** @description Every answer, newest first (as `GET /api/question-answers`). */
            answers: components["schemas"]["AnswerHistoryItem"][];
            /** @description Every follow, newest first; `following` false is a follow given up after kick-off (it used a daily slot). */
            follows: components["schemas"]["FollowRecord"][];
            player_groups: components["schemas"]["PlayerGroupSummary"][];
            feedback: components["schemas"]["Feedback"][];
            devices: components["schemas"]["Device"][];
            leaderboard_positions: components["schemas"]["UserLeaderboardPositions"];
        };
        FollowRecord: {
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /** @example true */
            following: boolean;
            /**
             * Format: date-time
             * @example 2026-11-20T18:00:00Z
             */
            followed_at: string;
        };
        /** @description An API key, shown only in this response, and the user it belongs to. */
        Token: {
            /**
             * @description The key; send it as `Authorization: Bearer <api_key>`. Store it: it is never shown again.
             * @example qp_3Jx1uP8kz4mW0vN7bQ2sT5yH9cL6dF1aG8eR4tY0uI2
             */
            api_key: string;
            /**
             * @example bearer
             * @enum {string}
             */
            token_type: "bearer";
            user: components["schemas"]["User"];
        };
        RegisterRequest: {
            username: components["schemas"]["Username"];
            password: components["schemas"]["Password"];
            email: components["schemas"]["Email"];
            /** @example Alice */
            first_name?: string | null;
        };
        LoginRequest: {
            /**
             * @description Username or email.
             * @example alice
             */
            username: string;
            /**
             * Format: password
             * @example correct horse battery staple
             */
            password: string;
        };
        /**
         * @description 3 to 32 letters, digits, `.`, `_` or `-`; unique without regard to case.
         * @example alice
         */
        Username: string;
        /**
         * Format: password
         * @description 8 to 256 characters.
         * @example correct horse battery staple
         */
        Password: string;
        /**
         * Format: email
         * @description Unique without regard to case; stored in lowercase.
         * @example alice@example.com
         */
        Email: string;
        /**
         * Format: iana-timezone
         * @description IANA time zone name (for example `Europe/Berlin`), surrounding spaces ignored; blank (empty or only spaces) or null means UTC and is stored as null.
         * @example Europe/Berlin
         */
        Timezone: string | null;
        /**
         * @description The name leaderboards show. Runs of white space become one space and
         *     the ends are trimmed; then it must be 2 to 32 characters, hold no
         *     control or invisible formatting characters (such as zero-width or
         *     bidirectional marks), must not look like an email address, and must
         *     not carry a word of the service's profanity list (400 naming the rule
         *     otherwise). Blank (only spaces) or null clears it: leaderboards then
         *     show the username. Names players are shown by are unique without
         *     regard to case: a display name another player uses as their display
         *     name or username gives 409 (`user.display_name_taken`; one's own
         *     username in other letter cases is fine), and so does a username
         *     another player displays (`user.username_taken`). It must not look
         *     like the name of a player without one (`Player` and 8 hex digits).
         * @example Alice in Goalland
         */
        DisplayName: string | null;
        User: {
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            id: string;
            /**
             * @description May be null on accounts created without one.
             * @example alice
             */
            username: string | null;
            /**
             * @description The name the player chose for leaderboards (see `DisplayName`); null when none.
             * @example Alice in Goalland
             */
            display_name: string | null;
            /**
             * @description An admin set the display name and locked it; the player cannot change it (409) until an admin unlocks it.
             * @example false
             */
            display_name_locked: boolean;
            /**
             * @description What leaderboards show for this user, derived, never the email - `display_name`, else `username`, else `Player` and the first 8 characters of the id. No two users have the same one, without regard to case.
             * @example Alice in Goalland
             */
            leaderboard_name: string;
            /** @example alice@example.com */
            email: string;
            /**
             * @description The player proved the email theirs (a mailed verification link, or a password reset sent there). Changing the email makes it false until the new address is verified; unverified accounts cannot create or join private groups.
             * @example true
             */
            email_verified: boolean;
            /** @example Alice */
            first_name: string | null;
            /** @example Liddell */
            last_name: string | null;
            /**
             * @description Free-form postal address.
             * @example 1 Main Street, Springfield
             */
            postal_address: string | null;
            /**
             * Format: date
             * @example 1990-04-01
             */
            date_of_birth: string | null;
            /**
             * @description Time zone of the daily follow quota and of the points periods; blank or null means UTC.
             * @example Europe/Berlin
             */
            match_follow_timezone: string | null;
            /**
             * @description Real matches the user may newly follow per day; null means unrestricted.
             * @example 3
             */
            match_daily_follow_count: number | null;
            /** @example true */
            notify_on_issuance: boolean;
            /** @example true */
            notify_on_resolve: boolean;
            /** @example false */
            is_admin: boolean;
            /** @example true */
            is_active: boolean;
            /**
             * @description Set by an admin (cheating, abuse) - the user appears on no leaderboard and counts in no rank; their answers, points and history stay.
             * @example false
             */
            hidden_from_leaderboards: boolean;
            /**
             * @example local_password
             * @enum {string}
             */
            auth_provider: "local_password";
            /**
             * Format: date-time
             * @example 2026-11-01T12:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-01T12:00:00Z
             */
            updated_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T18:30:00Z
             */
            last_login_at: string | null;
            /**
             * Format: date-time
             * @description When the player deleted the account (its row stays, anonymised, and inactive); null otherwise.
             * @example null
             */
            deleted_at: string | null;
        };
        /** @description The fields a player may change on their own profile. */
        UserSelfPatch: {
            display_name?: components["schemas"]["DisplayName"];
            email?: components["schemas"]["Email"];
            /** @example Alice */
            first_name?: string | null;
            /** @example Liddell */
            last_name?: string | null;
            /** @example 1 Main Street, Springfield */
            postal_address?: string | null;
            /**
             * Format: date
             * @example 1990-04-01
             */
            date_of_birth?: string | null;
            match_follow_timezone?: components["schemas"]["Timezone"];
            /** @example true */
            notify_on_issuance?: boolean;
            /** @example false */
            notify_on_resolve?: boolean;
        };
        UserCreate: {
            username: components["schemas"]["Username"];
            password: components["schemas"]["Password"];
            email: components["schemas"]["Email"];
            display_name?: components["schemas"]["DisplayName"];
            /** @example Bob */
            first_name?: string | null;
            /** @example Operator */
            last_name?: string | null;
            /** @example 2 Side Street, Springfield */
            postal_address?: string | null;
            /**
             * Format: date
             * @example 1985-02-03
             */
            date_of_birth?: string | null;
            match_follow_timezone?: components["schemas"]["Timezone"];
            /**
             * @description Daily follow quota; null means unrestricted.
             * @default 3
             * @example 3
             */
            match_daily_follow_count: number | null;
            /**
             * @default true
             * @example true
             */
            notify_on_issuance: boolean;
            /**
             * @default true
             * @example true
             */
            notify_on_resolve: boolean;
            /**
             * @default false
             * @example false
             */
            is_admin: boolean;
        };
        UserAdminPatch: {
            username?: components["schemas"]["Username"];
            password?: components["schemas"]["Password"];
            email?: components["schemas"]["Email"];
            display_name?: components["schemas"]["DisplayName"];
            /**
             * @description true keeps the player from changing their display name (an admin's override stays); false lets them again.
             * @example true
             */
            display_name_locked?: boolean;
            /**
             * @description true takes the user off every leaderboard and out of every rank at once (their answers and points stay); false puts them back, with everything they scored meanwhile.
             * @example true
             */
            hidden_from_leaderboards?: boolean;
            /** @example Bob */
            first_name?: string | null;
            /** @example Operator */
            last_name?: string | null;
            /** @example 2 Side Street, Springfield */
            postal_address?: string | null;
            /**
             * Format: date
             * @example 1985-02-03
             */
            date_of_birth?: string | null;
            match_follow_timezone?: components["schemas"]["Timezone"];
            /**
             * @description Daily follow quota; null means unrestricted.
             * @example 5
             */
            match_daily_follow_count?: number | null;
            /** @example true */
            notify_on_issuance?: boolean;
            /** @example true */
            notify_on_resolve?: boolean;
            /** @example true */
            is_admin?: boolean;
            /**
             * @description false deactivates the account and revokes its keys; true reactivates it (the user then logs in again).
             * @example true
             */
            is_active?: boolean;
        };
        UserList: {
            users: components["schemas"]["User"][];
            /**
             * @description Users matching the filters, before offset and limit.
             * @example 1
             */
            user_count: number;
        };
        PointsTotals: {
            /**
             * @description Points scored.
             * @example 120
             */
            points: number;
            /**
             * @description Answers given.
             * @example 14
             */
            answered_count: number;
            /**
             * @description Answers whose question has resolved (voided ones not counted).
             * @example 12
             */
            resolved_count: number;
            /**
             * @description Correct answers.
             * @example 7
             */
            correct_count: number;
        };
        PeriodPoints: {
            /**
             * @description Calendar period in the user's time zone (weeks start on Monday).
             * @example today
             * @enum {string}
             */
            period: "today" | "this_week" | "this_month" | "this_year";
            /**
             * Format: date-time
             * @example 2026-11-19T23:00:00Z
             */
            starts_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T23:00:00Z
             */
            ends_at: string;
            /** @example 40 */
            points: number;
            /**
             * @description Answers whose question resolved in the period.
             * @example 5
             */
            answered_count: number;
            /** @example 5 */
            resolved_count: number;
            /** @example 3 */
            correct_count: number;
        };
        /**
         * @description Points of resolved answers, counted at resolution time. Periods are
         *     calendar periods in the user's `match_follow_timezone` (UTC when
         *     blank), containing the current instant; an answer belongs to the
         *     period in which its question resolved. Answers on test matches
         *     (`is_test=true`, which replay matches whose outcome is known) count
         *     in none of these totals, counts included; the answer history still
         *     shows them with their points.
         *
         *     The leaderboards (`GET /api/leaderboards/...`) count exactly these
         *     answers in exactly these periods: a player's row on the board of a
         *     day, week or month is their `today`, `this_week` or `this_month`
         *     figure here on that day (`points`, `correct_count`), and their
         *     all-time row has their all-time `points` and `correct_count`.
         *     (A board's `answered_count` counts settled answers, as the periods
         *     here do; the all-time `answered_count` here also counts pending
         *     ones.)
         */
        UserPoints: {
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            user_id: string;
            /**
             * @description The time zone the periods are computed in.
             * @example Europe/Berlin
             */
            timezone: string;
            all_time: components["schemas"]["PointsTotals"];
            periods: components["schemas"]["PeriodPoints"][];
        };
        /** @description A browser's PushSubscription (`subscription.toJSON()`). */
        WebPushSubscription: {
            /**
             * Format: uri
             * @example https://push.example.com/send/abc123
             */
            endpoint: string;
            /** @example null */
            expiration_time?: number | null;
            keys: {
                /** @example BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM */
                p256dh: string;
                /** @example tBHItJI5svbpez7KI4CCXg */
                auth: string;
            };
        };
        DeviceRegistration: {
            /**
             * @description Client-chosen id, stable per installation.
             * @example pixel-8-7f3a
             */
            device_id: string;
            /**
             * @example web
             * @enum {string}
             */
            platform: "web" | "ios" | "android";
            /**
             * @description Provider registration token (ios, android).
             * @example null
             */
            token?: string | null;
            /** @description Web Push subscription (web). */
            subscription?: components["schemas"]["WebPushSubscription"] | components["schemas"]["NullValue"];
            /** @example 1.4.2 */
            app_version?: string | null;
        };
        Device: {
            /** @example pixel-8-7f3a */
            device_id: string;
            /**
             * @example web
             * @enum {string}
             */
            platform: "web" | "ios" | "android";
            /** @example 1.4.2 */
            app_version: string | null;
            /**
             * Format: date-time
             * @example 2026-11-20T18:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T18:05:00Z
             */
            updated_at: string;
        };
        /**
         * @description JSON null.
         * @example null
         * @enum {object|null}
         */
        NullValue: never | null;
        Brand: {
            /**
             * Format: uuid
             * @example 9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f
             */
            id: string;
            /** @example Acme Sports Drinks */
            name: string;
            /**
             * @description Lowercase `#rrggbb`.
             * @example #ff5500
             */
            primary_color: string;
            /**
             * @description Lowercase `#rrggbb`.
             * @example #002244
             */
            secondary_color: string | null;
            /**
             * @description File name of the stored logo (sanitized upload name).
             * @example acme-logo.png
             */
            logo_filename: string | null;
            /**
             * @description Media type recognized from the logo's bytes.
             * @example image/png
             */
            logo_content_type: string | null;
            /**
             * @description Public URL of the object `brands/{id}/{filename}` in the bucket.
             * @example https://cdn.example.com/brands/9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f/acme-logo.png
             */
            logo_url: string | null;
            /**
             * Format: date-time
             * @example 2026-11-01T12:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-02T08:30:00Z
             */
            updated_at: string;
        };
        /** @description The brand as stamped on a match or an issuance. */
        BrandSummary: {
            /**
             * Format: uuid
             * @example 9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f
             */
            id: string;
            /** @example Acme Sports Drinks */
            name: string;
            /** @example #ff5500 */
            primary_color: string;
            /** @example #002244 */
            secondary_color: string | null;
            /** @example https://cdn.example.com/brands/9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f/acme-logo.png */
            logo_url: string | null;
        };
        /** @description A brand, or null. */
        NullableBrandSummary: components["schemas"]["BrandSummary"] | components["schemas"]["NullValue"];
        BrandCreateForm: {
            /**
             * @description Unique without regard to case; surrounding blanks are trimmed and a blank name gives 400.
             * @example Acme Sports Drinks
             */
            name: string;
            /**
             * @description `#RGB` or `#RRGGBB`; otherwise 400.
             * @example #FF5500
             */
            primary_color: string;
            /**
             * @description `#RGB` or `#RRGGBB`; otherwise 400. Empty means none.
             * @example #024
             */
            secondary_color?: string;
            /**
             * Format: binary
             * @description PNG, JPEG, GIF or WebP, at most 2 MiB.
             */
            logo?: string;
        };
        BrandUpdateForm: {
            /** @example Acme Sports Drinks */
            name?: string;
            /** @example #FF5500 */
            primary_color?: string;
            /**
             * @description An empty value removes the secondary color.
             * @example #002244
             */
            secondary_color?: string;
            /**
             * Format: binary
             * @description Replaces the logo. Not together with `clear_logo=true`.
             */
            logo?: string;
            /**
             * @description Removes the stored logo. Not together with `logo`.
             * @example false
             */
            clear_logo?: boolean;
        };
        /**
         * @description How a slot picks its question (see the assignment operation).
         * @example question_number
         * @enum {string}
         */
        SponsorshipStrategy: "question_number" | "period" | "next_available" | "definition";
        /** @description The slot target: a question number (integer, strategy `question_number`), a period key (string, strategy `period`) or a definition id (string, strategy `definition`); absent or null for `next_available`. */
        SponsorshipTarget: number | string | components["schemas"]["NullValue"];
        QuestionSponsorshipSlotInput: {
            strategy: components["schemas"]["SponsorshipStrategy"];
            target?: components["schemas"]["SponsorshipTarget"];
            /**
             * @description `period` strategy: move on to the next question when the period passes without one (default true).
             * @default true
             * @example true
             */
            best_effort: boolean;
        };
        QuestionSponsorshipAssignment: {
            /**
             * @example [
             *       "7d444840-9dc0-11d1-b245-5ffdce74fad2"
             *     ]
             */
            match_ids: string[];
            /**
             * @example [
             *       {
             *         "strategy": "question_number",
             *         "target": 1
             *       },
             *       {
             *         "strategy": "period",
             *         "target": "2",
             *         "best_effort": true
             *       }
             *     ]
             */
            slots?: components["schemas"]["QuestionSponsorshipSlotInput"][];
            /**
             * @description Instead of `slots`, place round(question_max_count x percent / 100) slots at random question numbers.
             * @example 50
             */
            random_percent?: number;
            /**
             * @description Remove this brand's existing slots on the matches first.
             * @default true
             * @example true
             */
            replace_existing_for_brand: boolean;
        };
        QuestionSponsorship: {
            /**
             * Format: uuid
             * @example 1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b
             */
            id: string;
            /**
             * Format: uuid
             * @example 9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f
             */
            brand_id: string;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            strategy: components["schemas"]["SponsorshipStrategy"];
            target: components["schemas"]["SponsorshipTarget"];
            /** @example true */
            best_effort: boolean;
            /**
             * Format: uuid
             * @description The issuance this slot was stamped on, once issued.
             * @example null
             */
            question_issuance_id: string | null;
            /**
             * Format: date-time
             * @example null
             */
            stamped_at: string | null;
            brand: components["schemas"]["BrandSummary"];
            /**
             * Format: date-time
             * @example 2026-11-19T10:00:00Z
             */
            created_at: string;
        };
        QuestionSponsorshipAssignmentResult: {
            /**
             * Format: uuid
             * @example 9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f
             */
            brand_id: string;
            matches: {
                /**
                 * Format: uuid
                 * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
                 */
                match_id: string;
                /** @example 0 */
                removed_count: number;
                /** @example 2 */
                created_count: number;
                /** @description All slots of this brand on the match after the assignment. */
                slots: components["schemas"]["QuestionSponsorship"][];
            }[];
        };
        /**
         * @description Maximum regular questions per period, keyed by the sport's period keys (see `League.periods`). Periods left out are not capped.
         * @example {
         *       "1": 5,
         *       "2": 5
         *     }
         */
        PeriodDistribution: {
            [key: string]: number;
        };
        /**
         * @description An object mapping period keys of the league's sport to non-negative integers, e.g. `{"1": 5, "2": 5}`. Any other shape (not an object, an unknown period key, a value that is not a non-negative integer) gives 400.
         * @example {
         *       "1": 5,
         *       "2": 5
         *     }
         */
        PeriodDistributionInput: unknown;
        /**
         * @example [
         *       "2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d"
         *     ]
         */
        UuidList: string[];
        /** @description A list of definition ids, or null for "no allowlist". */
        NullableUuidList: components["schemas"]["UuidList"] | components["schemas"]["NullValue"];
        League: {
            /**
             * Format: uuid
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            id: string;
            /**
             * @description Lowercase league abbreviation.
             * @example wc
             */
            slug: string;
            /** @example FIFA World Cup */
            name: string;
            /**
             * @example football
             * @enum {string}
             */
            sport: "football" | "american_football" | "basketball" | "baseball" | "ice_hockey";
            /**
             * @description Period keys of the sport, in playing order.
             * @example [
             *       "1",
             *       "2",
             *       "et1",
             *       "et2",
             *       "pen"
             *     ]
             */
            periods: string[];
            /**
             * @description Regular (non-pivotal) in-game questions per match.
             * @example 10
             */
            default_question_max_count: number;
            /**
             * @description Minimum seconds (feed time, the events' occurred_at) between two regular questions in the same lane.
             * @example 120
             */
            default_question_min_interval_seconds: number;
            default_question_period_distribution: components["schemas"]["PeriodDistribution"];
            /**
             * @description Points for a correct answer.
             * @example 10
             */
            default_question_points: number;
            /**
             * @description Seconds an in-game question stays answerable after issue.
             * @example 60
             */
            default_answer_window_seconds: number;
            /**
             * @description The fairness rule: an in-game question whose outcome is decided
             *     less than this many seconds after it was asked (feed time: the
             *     deciding event's `occurred_at` minus the triggering event's) is
             *     voided instead of resolved, since nobody could answer it in
             *     time; its answers score nothing and cost nothing. The same on
             *     live matches and on replays (whatever their speed). 0 turns the
             *     rule off.
             * @example 10
             */
            default_min_answer_seconds: number;
            /**
             * @description Chance that a matched trigger issues (after the other gates).
             * @example 1
             */
            default_question_probability: number;
            /** @description When a list, only these in-game definitions issue on the league's matches (unless a match has its own list); when null, every active, unarchived one. */
            question_definition_allowlist: components["schemas"]["UuidList"] | components["schemas"]["NullValue"];
            /** @description As `question_definition_allowlist`, for Match question definitions. */
            match_question_definition_allowlist: components["schemas"]["UuidList"] | components["schemas"]["NullValue"];
            /**
             * Format: date-time
             * @example 2026-11-01T00:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-01T00:00:00Z
             */
            updated_at: string;
        };
        LeaguePatch: {
            /** @example 12 */
            default_question_max_count?: number;
            /** @example 90 */
            default_question_min_interval_seconds?: number;
            default_question_period_distribution?: components["schemas"]["PeriodDistributionInput"];
            /** @example 10 */
            default_question_points?: number;
            /** @example 45 */
            default_answer_window_seconds?: number;
            /**
             * @description See `League.default_min_answer_seconds`.
             * @example 15
             */
            default_min_answer_seconds?: number;
            /** @example 0.8 */
            default_question_probability?: number;
            question_definition_allowlist?: components["schemas"]["NullableUuidList"];
            match_question_definition_allowlist?: components["schemas"]["NullableUuidList"];
        };
        QuestionGroup: {
            /**
             * Format: uuid
             * @example 4a6c8e0f-2b4d-4e6f-9a1b-3c5d7e9f1a2b
             */
            id: string;
            /**
             * @description League slug.
             * @example wc
             */
            league: string;
            /**
             * Format: uuid
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            league_id: string;
            /**
             * @description Unique within the league; immutable.
             * @example goals
             */
            slug: string;
            /** @example Goal questions */
            name: string;
            /** @example Questions about who scores next. */
            description: string | null;
            /**
             * @description Width of the lane; questions of this group open at the same time on one match.
             * @example 1
             */
            max_open_questions: number;
            /**
             * @description Cap on the group's regular questions per match; null means only the match cap applies.
             * @example 4
             */
            question_max_count: number | null;
            /**
             * @description Overrides the league's minimum interval within this lane; null inherits.
             * @example 180
             */
            min_interval_seconds: number | null;
            /** @description Per-period cap on the group's regular questions; null means none. */
            period_distribution: components["schemas"]["PeriodDistribution"] | components["schemas"]["NullValue"];
            /**
             * @description Overrides the league's answer window; null inherits.
             * @example 45
             */
            answer_window_seconds: number | null;
            /**
             * @description Overrides the league's minimum answer time (`League.default_min_answer_seconds`); null inherits.
             * @example null
             */
            min_answer_seconds: number | null;
            /**
             * @description Overrides the league's points; null inherits.
             * @example 15
             */
            points: number | null;
            /**
             * @description Overrides the league's probability; null inherits.
             * @example null
             */
            probability: number | null;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            updated_at: string;
        };
        QuestionGroupCreate: {
            /**
             * @description 1 to 64 of `a-z`, `0-9`, `-`, `_`, starting with a letter or digit (400 otherwise).
             * @example goals
             */
            slug: string;
            /** @example Goal questions */
            name: string;
            /** @example Questions about who scores next. */
            description?: string | null;
            /**
             * @default 1
             * @example 1
             */
            max_open_questions: number;
            /** @example 4 */
            question_max_count?: number | null;
            /** @example 180 */
            min_interval_seconds?: number | null;
            period_distribution?: components["schemas"]["PeriodDistributionInput"];
            /** @example 45 */
            answer_window_seconds?: number | null;
            /**
             * @description Overrides the league's minimum answer time (`League.default_min_answer_seconds`); null inherits.
             * @example null
             */
            min_answer_seconds?: number | null;
            /** @example 15 */
            points?: number | null;
            /** @example null */
            probability?: number | null;
        };
        QuestionGroupPatch: {
            /**
             * @description Immutable; accepted only when equal to the current slug.
             * @example goals
             */
            slug?: string;
            /** @example Goal questions */
            name?: string;
            /** @example Questions about who scores next. */
            description?: string | null;
            /** @example 2 */
            max_open_questions?: number;
            /** @example 4 */
            question_max_count?: number | null;
            /** @example 180 */
            min_interval_seconds?: number | null;
            period_distribution?: components["schemas"]["PeriodDistributionInput"];
            /** @example 45 */
            answer_window_seconds?: number | null;
            /**
             * @description Overrides the league's minimum answer time (`League.default_min_answer_seconds`); null inherits.
             * @example null
             */
            min_answer_seconds?: number | null;
            /** @example 15 */
            points?: number | null;
            /** @example 0.5 */
            probability?: number | null;
        };
        /**
         * @description A normalized feed event, the same for every sport and provider.
         *     Providers deliver at least once and correct events later: an `update`
         *     replaces the earlier version of the same `provider_event_id`, a
         *     `delete` withdraws it. Only events with `final=true` resolve
         *     questions.
         */
        FeedEvent: {
            /** @example metrica-g1-1021 */
            provider_event_id: string;
            /**
             * @description Position in the feed.
             * @example 1021
             */
            seq: number;
            /**
             * @example create
             * @enum {string}
             */
            operation: "create" | "update" | "delete";
            /**
             * @description Canonical type (see the sample catalog).
             * @example shot
             */
            type: string;
            /**
             * @description Period key of the sport.
             * @example 2
             */
            period: string | null;
            /**
             * @description Match clock in seconds since kick-off (continuing across periods).
             * @example 3127
             */
            clock_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:07Z
             */
            occurred_at: string;
            /**
             * @example home
             * @enum {string|null}
             */
            team: "home" | "away" | null;
            /** @description Score after the event. */
            score: {
                /** @example 1 */
                home: number;
                /** @example 0 */
                away: number;
            };
            /**
             * @description Whether the provider has confirmed this version.
             * @example true
             */
            final: boolean;
            /**
             * @description Type-specific details (see the sample catalog).
             * @example {
             *       "outcome": "goal",
             *       "player": "Player 9",
             *       "x": 0.91,
             *       "y": 0.47
             *     }
             */
            data: {
                [key: string]: unknown;
            };
        };
        /** @description When a definition fires. */
        Trigger: {
            /**
             * @description Canonical event type of the league's sport (400 when unknown).
             * @example corner
             */
            event_type: string;
            /**
             * @description JSONata expression over `{event, state, match}`; the trigger fires when it is truthy. Null or absent means always.
             * @example event.period = "1" or event.period = "2"
             */
            condition?: string | null;
        };
        ChoiceTemplate: {
            /**
             * @description Stable choice id that answers and resolution rules use; unique within the definition (400).
             * @example home
             */
            identifier: string;
            /**
             * @description Liquid template over `{event, state, match, extract}`.
             * @example {{ match.home_team }}
             */
            label_template: string;
        };
        RenderedChoice: {
            /** @example home */
            identifier: string;
            /** @example Qatar */
            label: string;
        };
        ResolutionRule: {
            /**
             * @description Event type this rule looks at. Only final events after the triggering one count.
             * @example shot
             */
            event_type: string;
            /**
             * @description JSONata over `{event, state, match, issuance}`; the rule decides only when truthy. Null means always.
             * @example event.clock_seconds <= issuance.trigger.clock_seconds + 300
             */
            condition?: string | null;
            /**
             * @description JSONata over the same input returning the correct choice identifier; a result that is null, empty or not a choice voids the question.
             * @example "yes"
             */
            correct_choice: string;
        };
        ResolutionTimeout: {
            /**
             * @description Match-clock seconds after the triggering event; the first final event past that resolves the question with `correct_choice`.
             * @example 300
             */
            after_seconds: number;
            /**
             * @description Choice identifier that is correct on timeout, or null to void.
             * @example no
             */
            correct_choice: string | null;
        };
        /**
         * @description How an issued question resolves. After the triggering event, each
         *     final event is checked against `rules` in order; the first rule whose
         *     `event_type` matches and whose `condition` holds decides. With a
         *     `timeout`, a final event whose clock is past the trigger's clock plus
         *     `after_seconds` decides first. A question still open when the match
         *     ends is resolved by the rules against the end-of-match
         *     `match_status` event, or else voided.
         */
        Resolution: {
            rules: components["schemas"]["ResolutionRule"][];
            /** @description Optional timeout (or null). */
            timeout?: components["schemas"]["ResolutionTimeout"] | components["schemas"]["NullValue"];
        };
        /**
         * @description An in-game definition. Expressions are JSONata; templates are Liquid
         *     (no file system, no includes). Their input:
         *     - `event`: the normalized event (`FeedEvent`) being handled;
         *     - `state`: the match's state store (what `store_state` wrote so far);
         *     - `match`: `{id, home_team, away_team, league, status, period, clock_seconds, score: {home, away}}`;
         *     - `extract` (templates): the results of `issuance_state_extract`;
         *     - `issuance` (resolution): `{state, trigger, issued_at, question_number}` with `state` the extract snapshot and `trigger` the triggering event.
         *
         *     Order when an event arrives: open questions are resolved first; then,
         *     for each definition whose trigger type and condition match,
         *     `store_state` updates the store, the issuance gates run, and finally
         *     `issuance_state_extract` is evaluated and the text and labels are
         *     rendered (a failure there is the `render` gate's denial).
         * @example {
         *       "name": "Shot after a corner",
         *       "description": "After a corner, will the same team shoot within five minutes?",
         *       "is_pivotal_moment": false,
         *       "is_active": true,
         *       "group_id": null,
         *       "trigger": {
         *         "event_type": "corner",
         *         "condition": "event.team = \"home\" or event.team = \"away\""
         *       },
         *       "question_text_template": "Corner for {% if event.team == \"home\" %}{{ match.home_team }}{% else %}{{ match.away_team }}{% endif %} at {{ extract.minute }}'. Shot within 5 minutes?",
         *       "choices": [
         *         {
         *           "identifier": "yes",
         *           "label_template": "Yes"
         *         },
         *         {
         *           "identifier": "no",
         *           "label_template": "No"
         *         }
         *       ],
         *       "issuance_state_extract": {
         *         "minute": "$floor(event.clock_seconds / 60) + 1",
         *         "team": "event.team"
         *       },
         *       "store_state": {
         *         "corners": "(state.corners ? state.corners : 0) + 1"
         *       },
         *       "resolution": {
         *         "rules": [
         *           {
         *             "event_type": "shot",
         *             "condition": "event.team = issuance.state.team and event.clock_seconds <= issuance.trigger.clock_seconds + 300",
         *             "correct_choice": "\"yes\""
         *           }
         *         ],
         *         "timeout": {
         *           "after_seconds": 300,
         *           "correct_choice": "no"
         *         }
         *       },
         *       "answer_window_seconds": 30,
         *       "points": null,
         *       "probability": null
         *     }
         */
        QuestionDefinitionInput: {
            /**
             * @description Unique within the league without regard to case (409).
             * @example Next goal
             */
            name: string;
            /** @example After each goal, ask who scores next. */
            description?: string | null;
            /**
             * @description Pivotal moments are counted apart from the match's cap of regular questions.
             * @default false
             * @example false
             */
            is_pivotal_moment: boolean;
            /**
             * @description Included by default on the league's matches (when no allowlist says otherwise).
             * @default true
             * @example true
             */
            is_active: boolean;
            /**
             * Format: uuid
             * @description Question group (lane) of the same league; null for the league's default lane.
             * @example null
             */
            group_id?: string | null;
            trigger: components["schemas"]["Trigger"];
            /**
             * @description Liquid template of the question text.
             * @example {{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Who scores next?
             */
            question_text_template: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label_template": "{{ match.home_team }}"
             *       },
             *       {
             *         "identifier": "away",
             *         "label_template": "{{ match.away_team }}"
             *       },
             *       {
             *         "identifier": "none",
             *         "label_template": "No more goals"
             *       }
             *     ]
             */
            choices: components["schemas"]["ChoiceTemplate"][];
            /**
             * @description Names mapped to JSONata expressions; the results are snapshotted into the issuance (`extract` in templates, `issuance.state` in resolution).
             * @example {
             *       "score_at_issue": "event.score"
             *     }
             */
            issuance_state_extract?: {
                [key: string]: string;
            } | null;
            /**
             * @description State-store keys mapped to JSONata expressions, evaluated whenever the trigger matches (before the gates); the results are written into the match's state store.
             * @example {
             *       "goals": "(state.goals ? state.goals : 0) + 1"
             *     }
             */
            store_state?: {
                [key: string]: string;
            } | null;
            resolution: components["schemas"]["Resolution"];
            /**
             * @description Overrides the group's or league's answer window; null inherits.
             * @example null
             */
            answer_window_seconds?: number | null;
            /**
             * @description Overrides the group's or league's minimum answer time (`League.default_min_answer_seconds`); null inherits.
             * @example null
             */
            min_answer_seconds?: number | null;
            /**
             * @description Overrides the group's or league's points; null inherits.
             * @example null
             */
            points?: number | null;
            /**
             * @description Overrides the group's or league's probability; null inherits.
             * @example null
             */
            probability?: number | null;
        };
        /** @description An in-game definition as stored (see `QuestionDefinitionInput` for the meaning of each field). */
        QuestionDefinition: {
            /**
             * Format: uuid
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            id: string;
            /** @example wc */
            league: string;
            /**
             * Format: uuid
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            league_id: string;
            /** @example Next goal */
            name: string;
            /** @example After each goal, ask who scores next. */
            description: string | null;
            /** @example false */
            is_pivotal_moment: boolean;
            /** @example true */
            is_active: boolean;
            /**
             * @description Archived definitions are hidden from the default list and never issued.
             * @example false
             */
            is_archived: boolean;
            /**
             * Format: uuid
             * @example null
             */
            group_id: string | null;
            trigger: components["schemas"]["Trigger"];
            /** @example {{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Who scores next? */
            question_text_template: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label_template": "{{ match.home_team }}"
             *       },
             *       {
             *         "identifier": "away",
             *         "label_template": "{{ match.away_team }}"
             *       },
             *       {
             *         "identifier": "none",
             *         "label_template": "No more goals"
             *       }
             *     ]
             */
            choices: components["schemas"]["ChoiceTemplate"][];
            /**
             * @example {
             *       "score_at_issue": "event.score"
             *     }
             */
            issuance_state_extract: {
                [key: string]: string;
            } | null;
            /**
             * @example {
             *       "goals": "(state.goals ? state.goals : 0) + 1"
             *     }
             */
            store_state: {
                [key: string]: string;
            } | null;
            resolution: components["schemas"]["Resolution"];
            /** @example null */
            answer_window_seconds: number | null;
            /** @example null */
            min_answer_seconds: number | null;
            /** @example null */
            points: number | null;
            /** @example null */
            probability: number | null;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            updated_at: string;
        };
        QuestionDefinitionSummary: {
            /**
             * Format: uuid
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            id: string;
            /** @example wc */
            league: string;
            /** @example Next goal */
            name: string;
            /** @example After each goal, ask who scores next. */
            description: string | null;
            /** @example false */
            is_pivotal_moment: boolean;
            /** @example true */
            is_active: boolean;
            /** @example false */
            is_archived: boolean;
            /**
             * Format: uuid
             * @example null
             */
            group_id: string | null;
            /** @example score_change */
            trigger_event_type: string;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            updated_at: string;
        };
        MatchResolution: {
            /**
             * @description JSONata over `{result, match}` returning the correct choice
             *     identifier once the match is closed; a result that is null or not
             *     a choice voids the question. `result` is `{home_score, away_score,
             *     winner ("home", "away" or "draw"), home_team, away_team, goals:
             *     [{team, minute, offset, player, penalty, own_goal}]}`, where a
             *     goal in stoppage time has the period's last minute and its
             *     `offset` (45+2: minute 45, offset 2; 0 otherwise).
             * @example result.winner
             */
            correct_choice: string;
        };
        /**
         * @description A Match (pre-game) question definition: the shape of an in-game
         *     definition without a trigger (it is issued by the clock,
         *     `issue_lead_seconds` before kick-off), with `is_active` as its only
         *     archive flag, and resolved from the final result. Expressions are
         *     JSONata; templates are Liquid. Their input:
         *     - `match`: `{id, league, home_team, away_team, scheduled, venue, status}`;
         *     - `state`: the match's state store before kick-off (what the
         *       `store_state` of Match questions issued earlier on this match wrote);
         *     - `extract` (templates): the results of `issuance_state_extract`;
         *     - `result` and `issuance` (resolution): the final result, and
         *       `{state, issued_at}` with `state` the extract snapshot.
         *
         *     Order at issue (one transaction per question, the match row locked):
         *     `store_state` updates the match's state store, then
         *     `issuance_state_extract` is evaluated and the text and labels are
         *     rendered. The match's listener starts from that state store at kick-off,
         *     so in-game definitions read what Match questions stored (as `state`).
         * @example {
         *       "name": "Who wins (with the pre-game pick count)",
         *       "description": "Full-time result; counts the Match questions of the match.",
         *       "is_pivotal_moment": false,
         *       "is_active": true,
         *       "group_id": null,
         *       "question_text_template": "{{ match.home_team }} vs {{ match.away_team }} at {{ extract.venue }}: who wins?",
         *       "choices": [
         *         {
         *           "identifier": "home",
         *           "label_template": "{{ match.home_team }}"
         *         },
         *         {
         *           "identifier": "draw",
         *           "label_template": "Draw"
         *         },
         *         {
         *           "identifier": "away",
         *           "label_template": "{{ match.away_team }}"
         *         }
         *       ],
         *       "issuance_state_extract": {
         *         "venue": "match.venue ? match.venue : \"the stadium\""
         *       },
         *       "store_state": {
         *         "pre_game_questions": "(state.pre_game_questions ? state.pre_game_questions : 0) + 1"
         *       },
         *       "issue_lead_seconds": 86400,
         *       "resolution": {
         *         "correct_choice": "result.winner"
         *       },
         *       "points": 20
         *     }
         */
        MatchQuestionDefinitionInput: {
            /**
             * @description Unique within the league without regard to case (409).
             * @example Who wins?
             */
            name: string;
            /** @example Full-time result. */
            description?: string | null;
            /**
             * @description Marks the questions it issues as pivotal moments (`is_pivotal_moment` on the issuance, the open question and the history row). The match list's totals count in-game issuances only.
             * @default false
             * @example false
             */
            is_pivotal_moment: boolean;
            /**
             * @description Only active definitions are issued; archive sets false, activate sets true.
             * @default true
             * @example true
             */
            is_active: boolean;
            /**
             * Format: uuid
             * @description Question group of the same league (400 otherwise); the definition inherits the group's `points` when it sets none. Null for none.
             * @example null
             */
            group_id?: string | null;
            /** @example {{ match.home_team }} vs {{ match.away_team }}: who wins? */
            question_text_template: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label_template": "{{ match.home_team }}"
             *       },
             *       {
             *         "identifier": "draw",
             *         "label_template": "Draw"
             *       },
             *       {
             *         "identifier": "away",
             *         "label_template": "{{ match.away_team }}"
             *       }
             *     ]
             */
            choices: components["schemas"]["ChoiceTemplate"][];
            /**
             * @description Names mapped to JSONata expressions over `match` and `state`, evaluated at issue; the results are snapshotted into the issuance (`extract` in templates, `issuance.state` in resolution).
             * @example {
             *       "venue": "match.venue ? match.venue : \"the stadium\""
             *     }
             */
            issuance_state_extract?: {
                [key: string]: string;
            } | null;
            /**
             * @description State-store keys mapped to JSONata expressions over `match` and `state`, evaluated when the question is issued; the results are written into the match's state store, which its listener starts from.
             * @example {
             *       "pre_game_questions": "(state.pre_game_questions ? state.pre_game_questions : 0) + 1"
             *     }
             */
            store_state?: {
                [key: string]: string;
            } | null;
            /**
             * @description Issued this many seconds before kick-off (at once if that time has passed); answerable until kick-off.
             * @default 86400
             * @example 86400
             */
            issue_lead_seconds: number;
            resolution: components["schemas"]["MatchResolution"];
            /**
             * @description Points for a correct answer; null means the league's default.
             * @example 20
             */
            points?: number | null;
        };
        /** @description A Match question definition as stored (see `MatchQuestionDefinitionInput`). */
        MatchQuestionDefinition: {
            /**
             * Format: uuid
             * @example 6e8a0c2d-4f6b-4d8e-a0c2-e4f6a8b0c2d4
             */
            id: string;
            /** @example wc */
            league: string;
            /**
             * Format: uuid
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            league_id: string;
            /** @example Who wins? */
            name: string;
            /** @example Full-time result. */
            description: string | null;
            /** @example false */
            is_pivotal_moment: boolean;
            /** @example true */
            is_active: boolean;
            /**
             * Format: uuid
             * @example null
             */
            group_id: string | null;
            /** @example {{ match.home_team }} vs {{ match.away_team }}: who wins? */
            question_text_template: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label_template": "{{ match.home_team }}"
             *       },
             *       {
             *         "identifier": "draw",
             *         "label_template": "Draw"
             *       },
             *       {
             *         "identifier": "away",
             *         "label_template": "{{ match.away_team }}"
             *       }
             *     ]
             */
            choices: components["schemas"]["ChoiceTemplate"][];
            /** @example null */
            issuance_state_extract: {
                [key: string]: string;
            } | null;
            /** @example null */
            store_state: {
                [key: string]: string;
            } | null;
            /** @example 86400 */
            issue_lead_seconds: number;
            resolution: components["schemas"]["MatchResolution"];
            /** @example 20 */
            points: number | null;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-10T09:00:00Z
             */
            updated_at: string;
        };
        CloneRequest: {
            /**
             * @description Name of the copy; default is the original name followed by ` (copy)`. Empty or blank gives 400.
             * @example Next goal (second half)
             */
            name?: string;
        };
        CsvImportForm: {
            /**
             * Format: binary
             * @description CSV in the export's format.
             */
            file: string;
        };
        ImportRowAction: {
            /**
             * @description Line number in the file where the row starts (the header is line 1).
             * @example 2
             */
            row: number;
            /**
             * Format: uuid
             * @description The definition's id (null for a create in a dry run).
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            id: string | null;
            /** @example wc */
            league: string;
            /** @example Next goal */
            name: string;
            /**
             * @description Updates only; the fields that differ.
             * @example [
             *       "question_text_template"
             *     ]
             */
            changed_fields?: string[];
        };
        ImportRowError: {
            /**
             * @description Line number (null for a file-level error).
             * @example 3
             */
            row: number | null;
            /**
             * @description Column at fault, when there is one.
             * @example id
             */
            field: string | null;
            /** @example no definition with id 1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed */
            detail: string;
        };
        ImportResult: {
            /**
             * @description One-line summary.
             * @example dry run: 1 to create, 1 to update, 3 unchanged, 0 errors
             */
            detail: string;
            /** @example true */
            dry_run: boolean;
            /**
             * @description Whether the changes were written.
             * @example false
             */
            applied: boolean;
            /** @example 5 */
            row_count: number;
            creates: components["schemas"]["ImportRowAction"][];
            updates: components["schemas"]["ImportRowAction"][];
            unchanged: components["schemas"]["ImportRowAction"][];
            /** @description The first 100 problems, in file order (`error_count` says how many there were). */
            errors: components["schemas"]["ImportRowError"][];
            /**
             * @description Every problem found, listed in `errors` or not.
             * @example 0
             */
            error_count: number;
        };
        SampleEventType: {
            /** @example shot */
            type: string;
            /** @example A shot at goal; `data.outcome` is goal, on_target, off_target, blocked or woodwork. */
            description: string;
            /** @description Fields of `data` for this type. */
            data_fields: {
                /** @example outcome */
                name: string;
                /** @example string */
                type: string;
                /** @example goal, on_target, off_target, blocked or woodwork */
                description: string;
            }[];
            sample?: components["schemas"]["FeedEvent"];
        };
        SampleCatalog: {
            /** @example wc */
            league: string;
            /** @example football */
            sport: string;
            /**
             * @example [
             *       "1",
             *       "2",
             *       "et1",
             *       "et2",
             *       "pen"
             *     ]
             */
            periods: string[];
            /**
             * @description The sample match context (`match` in expressions and templates).
             * @example {
             *       "home_team": "Team A",
             *       "away_team": "Team B"
             *     }
             */
            match: {
                [key: string]: unknown;
            };
            event_types: components["schemas"]["SampleEventType"][];
        };
        /** @description Give either `sample_event_type` (a type of the league's sample catalog) or an inline `sample_event`. */
        QuestionPreviewRequest: {
            /** @example wc */
            league: string;
            /** @example {{ match.home_team }} {{ event.score.home }}-{{ event.score.away }} {{ match.away_team }}. Who scores next? */
            question_text_template: string;
            choices?: components["schemas"]["ChoiceTemplate"][];
            /**
             * @description Use the league's sample event of this type (404 when the catalog has none).
             * @example score_change
             */
            sample_event_type?: string;
            sample_event?: components["schemas"]["SampleEventInput"];
            /**
             * @description Contents of the state store to render against.
             * @example {
             *       "goals": 1
             *     }
             */
            store_state?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Names mapped to JSONata expressions, evaluated as at issue. At
             *     most 50 of them, as in a definition (422 `request.invalid` at
             *     `body.issuance_state_extract` above that; the released contract
             *     could not add `maxProperties` here without a breaking version).
             * @example {
             *       "minute": "$floor(event.clock_seconds / 60) + 1"
             *     }
             */
            issuance_state_extract?: {
                [key: string]: string;
            } | null;
            /**
             * @description Overrides of the sample match context (team names, score).
             * @example {
             *       "home_team": "Brazil",
             *       "away_team": "Serbia"
             *     }
             */
            match?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description An inline event for a preview instead of a catalog sample: the fields
         *     of a feed event (`FeedEvent`), every one optional but `type`. Missing
         *     fields take the values of the catalog's sample of that type, and
         *     `score` and `data` merge key by key. A `period` must be one of the
         *     league sport's periods (400 otherwise).
         * @example {
         *       "type": "score_change",
         *       "team": "home",
         *       "score": {
         *         "home": 1,
         *         "away": 0
         *       }
         *     }
         */
        SampleEventInput: {
            /** @example preview-1 */
            provider_event_id?: string;
            /** @example 12 */
            seq?: number;
            /**
             * @example create
             * @enum {string}
             */
            operation?: "create" | "update" | "delete";
            /**
             * @description A canonical event type of the sport (see the sample catalog).
             * @example score_change
             */
            type: string;
            /** @example 2 */
            period?: string | null;
            /** @example 3120 */
            clock_seconds?: number | null;
            /**
             * Format: date-time
             * @example 2026-06-14T19:52:07Z
             */
            occurred_at?: string;
            /**
             * @example home
             * @enum {string|null}
             */
            team?: "home" | "away" | null;
            /** @description Merged over the sample's score. */
            score?: {
                /** @example 1 */
                home?: number;
                /** @example 0 */
                away?: number;
            };
            /** @example true */
            final?: boolean;
            /**
             * @description Merged over the sample's data.
             * @example {
             *       "player": "Messi"
             *     }
             */
            data?: {
                [key: string]: unknown;
            };
        };
        QuestionPreview: {
            /** @example Brazil 1-0 Serbia. Who scores next? */
            question_text: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label": "Brazil"
             *       },
             *       {
             *         "identifier": "away",
             *         "label": "Serbia"
             *       }
             *     ]
             */
            choices: components["schemas"]["RenderedChoice"][];
            /**
             * @description Results of `issuance_state_extract` (the issuance snapshot).
             * @example {
             *       "minute": 63
             *     }
             */
            extract: {
                [key: string]: unknown;
            };
            event: components["schemas"]["FeedEvent"];
            /**
             * @description The match context used.
             * @example {
             *       "home_team": "Brazil",
             *       "away_team": "Serbia"
             *     }
             */
            match: {
                [key: string]: unknown;
            };
            /**
             * @description The state store used.
             * @example {
             *       "goals": 1
             *     }
             */
            state: {
                [key: string]: unknown;
            };
        };
        InheritedInteger: {
            /** @example 60 */
            value: number | null;
            source: components["schemas"]["SettingSource"];
        };
        InheritedNumber: {
            /** @example 1 */
            value: number | null;
            source: components["schemas"]["SettingSource"];
        };
        InheritedBoolean: {
            /** @example true */
            value: boolean;
            source: components["schemas"]["SettingSource"];
        };
        InheritedDistribution: {
            value: components["schemas"]["PeriodDistribution"];
            source: components["schemas"]["SettingSource"];
        };
        /**
         * @description The level the effective value comes from.
         * @example league
         * @enum {string}
         */
        SettingSource: "league" | "group" | "definition" | "match";
        EffectiveDefinitionSettings: {
            /**
             * Format: uuid
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            definition_id: string;
            /** @example Next goal */
            definition_name: string;
            /**
             * Format: uuid
             * @example null
             */
            group_id: string | null;
            included: components["schemas"]["InheritedBoolean"];
            answer_window_seconds: components["schemas"]["InheritedInteger"];
            min_answer_seconds: components["schemas"]["InheritedInteger"];
            points: components["schemas"]["InheritedInteger"];
            probability: components["schemas"]["InheritedNumber"];
            min_interval_seconds: components["schemas"]["InheritedInteger"];
        };
        DecisionStep: {
            /**
             * @description Gate id.
             * @example min_interval
             */
            step: string;
            /** @example true */
            passed: boolean;
            /** @example 185 s since the last question in lane default (minimum 120 s) */
            detail: string;
        };
        IssuanceDecisionTrace: {
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            /**
             * Format: uuid
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            definition_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:31:02Z
             */
            issued_at: string;
            steps: components["schemas"]["DecisionStep"][];
        };
        /**
         * @description Where each effective question setting comes from. Precedence, lowest
         *     first: league, group, definition, match. Per-match settings
         *     (`question_max_count`, `min_interval_seconds`, period distribution)
         *     come from the league or the match; per-question settings (answer
         *     window, minimum answer time, points, probability; the lane interval
         *     from league, group or match). `included` is false for an archived definition (`definition`);
         *     otherwise the match's allowlist decides when it has one (`match`),
         *     else the league's (`league`), else the definition's `is_active`
         *     (`definition`). For `kind=match` only `included` and `points` apply;
         *     the other settings are null.
         */
        QuestionInheritance: {
            kind: components["schemas"]["QuestionKind"];
            league: components["schemas"]["League"];
            /**
             * Format: uuid
             * @description Set for the match inspection.
             * @example null
             */
            match_id: string | null;
            league_defaults: {
                /** @example 10 */
                question_max_count: number;
                /** @example 120 */
                min_interval_seconds: number;
                period_distribution: components["schemas"]["PeriodDistribution"];
                /** @example 10 */
                points: number;
                /** @example 60 */
                answer_window_seconds: number;
                /** @example 10 */
                min_answer_seconds: number;
                /** @example 1 */
                probability: number;
            };
            /** @description The match's overrides (null for the league inspection). */
            match_overrides: components["schemas"]["MatchOverrides"] | components["schemas"]["NullValue"];
            match_settings: {
                question_max_count: components["schemas"]["InheritedInteger"];
                min_interval_seconds: components["schemas"]["InheritedInteger"];
                period_distribution: components["schemas"]["InheritedDistribution"];
            };
            groups: components["schemas"]["QuestionGroup"][];
            definitions: {
                /**
                 * Format: uuid
                 * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
                 */
                id: string;
                /** @example Next goal */
                name: string;
                /** @example true */
                is_active: boolean;
                /** @example false */
                is_archived: boolean;
                /**
                 * Format: uuid
                 * @example null
                 */
                group_id: string | null;
            }[];
            matrix: components["schemas"]["EffectiveDefinitionSettings"][];
            /** @description Match inspection only; the decision trace of each issuance. */
            issuances: components["schemas"]["IssuanceDecisionTrace"][];
        };
        /**
         * @description `scheduled` (not started), `live` (in play), `break` (between
         *     periods, or play suspended), `ended` (play over, result not yet
         *     confirmed), `closed` (result final), `postponed`, `cancelled`. The
         *     live statuses are `live` and `break`. Usual flow: scheduled, live,
         *     break, live, ..., ended, closed. A live match follows its feed: a
         *     period starting, or play going on after a break, makes it `live`;
         *     a period ending makes it `break`.
         * @example live
         * @enum {string}
         */
        MatchStatus: "scheduled" | "live" | "break" | "ended" | "closed" | "postponed" | "cancelled";
        /** @description Match-level overrides of the league's question settings; null inherits. */
        MatchOverrides: {
            /** @example 8 */
            question_max_count: number | null;
            /** @example null */
            question_min_interval_seconds: number | null;
            question_period_distribution: components["schemas"]["PeriodDistribution"] | components["schemas"]["NullValue"];
            /** @example null */
            question_points: number | null;
            /** @example null */
            answer_window_seconds: number | null;
            /** @example null */
            min_answer_seconds: number | null;
            /** @example null */
            question_probability: number | null;
        };
        /**
         * @description A match as players and anonymous callers see it (`view: player`):
         *     teams, kick-off, where play stands, the whole-match sponsor, whether
         *     the caller follows it, and how many questions it has had. How
         *     questions are tuned and fed (overrides, allowlists, listeners, the
         *     feed URL, provider ids) is for operators only (`OperatorMatch`).
         */
        PlayerMatch: {
            /**
             * @description Which view this is; a client can tell them apart by it.
             * @example player
             * @enum {string}
             */
            view: "player";
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            id: string;
            /** @example wc */
            league: string;
            /** @example Qatar */
            home_team: string;
            /** @example Ecuador */
            away_team: string;
            /**
             * Format: date-time
             * @description Kick-off (UTC).
             * @example 2026-11-20T19:00:00Z
             */
            scheduled: string;
            status: components["schemas"]["MatchStatus"];
            /**
             * @description Current period key (the sport's, see `League.periods`); null before kick-off.
             * @example 1
             */
            period: string | null;
            /**
             * @description Match clock in seconds as last reported by the feed; null before kick-off.
             * @example 1920
             */
            clock_seconds: number | null;
            /**
             * @description Null before kick-off.
             * @example 0
             */
            home_score: number | null;
            /** @example 1 */
            away_score: number | null;
            /**
             * @description A test match (a clone replaying a finished match): unlisted to players who do not follow it, and its points count in no totals.
             * @example false
             */
            is_test: boolean;
            sponsor_brand: components["schemas"]["NullableBrandSummary"];
            /**
             * @description Most regular in-game questions the match will have.
             * @example 10
             */
            question_max_count: number;
            /**
             * @description Regular (non-pivotal) in-game questions issued so far.
             * @example 4
             */
            question_issuance_count: number;
            /**
             * @description Pivotal-moment questions issued so far.
             * @example 1
             */
            pivotal_moment_issuance_count: number;
            /**
             * @description Whether the caller follows the match; null without a key.
             * @example true
             */
            is_followed: boolean | null;
        };
        /**
         * @description A match as admins see it (`view: operator`): everything of the
         *     player view, plus the provider id, question setting overrides and
         *     allowlists, listener flags, the feed URL, sponsorship totals and the
         *     row's history.
         */
        OperatorMatch: {
            /**
             * @description Which view this is; a client can tell them apart by it.
             * @example operator
             * @enum {string}
             */
            view: "operator";
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            id: string;
            /**
             * @description The data provider's match id.
             * @example openfootball:wc2022:1
             */
            sr_id: string;
            /** @example wc */
            league: string;
            /**
             * Format: uuid
             * @example 0c6f3d2a-7b8e-4f9a-a1b2-c3d4e5f6a7b8
             */
            league_id: string;
            /** @example Qatar */
            home_team: string;
            /** @example Ecuador */
            away_team: string;
            /**
             * Format: date-time
             * @description Kick-off (UTC).
             * @example 2026-11-20T19:00:00Z
             */
            scheduled: string;
            status: components["schemas"]["MatchStatus"];
            /**
             * @description Current period key; null before kick-off.
             * @example 1
             */
            period: string | null;
            /** @example 1920 */
            clock_seconds: number | null;
            /** @example 0 */
            home_score: number | null;
            /** @example 1 */
            away_score: number | null;
            /**
             * @description A test match (a clone replaying a finished match): unlisted to players who do not follow it, and its points count in no totals.
             * @example false
             */
            is_test: boolean;
            /**
             * Format: uuid
             * @example null
             */
            cloned_from_match_id: string | null;
            /**
             * Format: uuid
             * @description Set on clone.
             * @example null
             */
            created_by_user_id: string | null;
            /**
             * @description The events its listeners consumed are archived (replayable, downloadable).
             * @example false
             */
            listener_events_archived: boolean;
            /**
             * @description Start a listener automatically when the match goes live.
             * @example true
             */
            auto_dispatch_listener: boolean;
            /**
             * @description The provider's live push feed of this match (newline-delimited
             *     JSON), which its auto-dispatched listener reads; null when none is
             *     attached (then `FEED_URL_TEMPLATE`, when set, builds one from
             *     `sr_id`, unless an operator detached it). Set and cleared with
             *     `PATCH /api/matches/{match_id}`: an operator's choice, a URL or
             *     null, is never replaced by a template.
             * @example https://feeds.example.com/wc/openfootball:wc2022:1
             */
            feed_url: string | null;
            /**
             * @description Effective cap on regular in-game questions (override or league default).
             * @example 10
             */
            question_max_count: number;
            overrides: components["schemas"]["MatchOverrides"];
            question_definition_allowlist: components["schemas"]["NullableUuidList"];
            match_question_definition_allowlist: components["schemas"]["NullableUuidList"];
            /**
             * Format: uuid
             * @example 9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f
             */
            sponsor_brand_id: string | null;
            sponsor_brand: components["schemas"]["NullableBrandSummary"];
            /**
             * @description Question sponsorship slots on the match.
             * @example 2
             */
            sponsored_question_count: number;
            /**
             * @description Regular (non-pivotal) in-game questions issued.
             * @example 4
             */
            question_issuance_count: number;
            /**
             * @description Pivotal-moment questions issued.
             * @example 1
             */
            pivotal_moment_issuance_count: number;
            /**
             * @description Whether the caller follows the match; null without a key.
             * @example false
             */
            is_followed: boolean | null;
            /**
             * Format: date-time
             * @example 2026-11-19T00:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:30Z
             */
            updated_at: string;
        };
        /** @description `PlayerMatch` for players and anonymous callers, `OperatorMatch` for admins; `view` says which. */
        MatchListItem: components["schemas"]["PlayerMatch"] | components["schemas"]["OperatorMatch"];
        /** @description `PlayerMatch` for players and anonymous callers, `MatchDetail` (the operator view with its question sponsorship slots) for admins; `view` says which. */
        MatchView: components["schemas"]["PlayerMatch"] | components["schemas"]["MatchDetail"];
        /** @description The operator view of a match with its question sponsorship slots. */
        MatchDetail: components["schemas"]["OperatorMatch"] & {
            question_sponsorships: components["schemas"]["QuestionSponsorship"][];
        };
        /** @description Short reference to a match. */
        MatchRef: {
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            id: string;
            /** @example wc */
            league: string;
            /** @example Qatar */
            home_team: string;
            /** @example Ecuador */
            away_team: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:00:00Z
             */
            scheduled: string;
            status: components["schemas"]["MatchStatus"];
            /**
             * @description A test match (a clone replaying a finished match): its points count in no totals.
             * @example false
             */
            is_test: boolean;
        };
        MatchPatch: {
            /**
             * @description Override; null inherits the league default. Lower than the slots already placed gives 409.
             * @example 8
             */
            question_max_count?: number | null;
            /** @example 90 */
            question_min_interval_seconds?: number | null;
            question_period_distribution?: components["schemas"]["PeriodDistributionInput"];
            /** @example 20 */
            question_points?: number | null;
            /** @example 45 */
            answer_window_seconds?: number | null;
            /**
             * @description Overrides the minimum answer time of every in-game question of the match (`League.default_min_answer_seconds`); null inherits.
             * @example null
             */
            min_answer_seconds?: number | null;
            /** @example 1 */
            question_probability?: number | null;
            question_definition_allowlist?: components["schemas"]["NullableUuidList"];
            match_question_definition_allowlist?: components["schemas"]["NullableUuidList"];
            /** @example true */
            auto_dispatch_listener?: boolean;
            /**
             * @description Make the match a test match (unlisted, its points count in no totals) or a real one.
             * @example false
             */
            is_test?: boolean;
            /**
             * Format: uuid
             * @description Whole-match sponsor; null removes it.
             * @example 9b2f8f3e-4c1a-4d5b-8e6f-7a8b9c0d1e2f
             */
            sponsor_brand_id?: string | null;
            /**
             * @description The provider's live push feed of the match (`http` or `https`, no credentials in it); null detaches it, for good (no feed URL template attaches one again). See the operation for the address rules.
             * @example https://feeds.example.com/wc/openfootball:wc2022:1
             */
            feed_url?: string | null;
        };
        MatchFollow: {
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            user_id: string;
            /**
             * @description false for a spent row (unfollowed after the match started) or a deleted follow.
             * @example true
             */
            following: boolean;
            /**
             * @description Whether this follow used a daily slot (false for test matches and unrestricted users).
             * @example true
             */
            counts_toward_quota: boolean;
            /**
             * Format: date
             * @description The day (in the user's time zone) whose quota the follow used.
             * @example 2026-11-20
             */
            quota_day: string | null;
            /**
             * @description Unfollow only; the follow was deleted and the slot it took (when `counts_toward_quota`) returned. false for a spent row.
             * @example false
             */
            refunded: boolean;
            /**
             * Format: date-time
             * @example 2026-11-20T15:00:00Z
             */
            followed_at: string;
            /**
             * Format: date-time
             * @example null
             */
            unfollowed_at: string | null;
            /**
             * @description Daily slots left today; null when unrestricted.
             * @example 2
             */
            follows_remaining_today: number | null;
        };
        /**
         * @description `in_game`: issued by a listener on a live event; `match`: a pre-game (Match) question, issued before kick-off and resolved from the result.
         * @example in_game
         * @enum {string}
         */
        QuestionKind: "in_game" | "match";
        /**
         * @description `pending` until the question resolves; `void` for voided or revoked questions.
         * @example correct
         * @enum {string}
         */
        AnswerOutcome: "pending" | "correct" | "incorrect" | "void";
        /**
         * @description `feed`: the provider's live push feed; `replay`: recorded events at `speed`.
         * @example replay
         * @enum {string}
         */
        ListenerSource: "feed" | "replay";
        /**
         * @description `open` (answerable until `closes_at`), `locked` (Match questions after kick-off, awaiting the result), `resolved`, `voided` (could not resolve; scores nothing), `revoked` (withdrawn by stop-listener; scores nothing).
         * @example resolved
         * @enum {string}
         */
        IssuanceStatus: "open" | "locked" | "resolved" | "voided" | "revoked";
        QuestionIssuance: {
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            id: string;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            kind: components["schemas"]["QuestionKind"];
            /**
             * Format: uuid
             * @description Null when the definition has since been deleted.
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            definition_id: string | null;
            /** @example Next goal */
            definition_name: string;
            /**
             * Format: uuid
             * @example null
             */
            group_id: string | null;
            /**
             * @description 1-based number among the match's regular questions; null for pivotal moments and Match questions.
             * @example 3
             */
            question_number: number | null;
            /** @example false */
            is_pivotal_moment: boolean;
            status: components["schemas"]["IssuanceStatus"];
            /** @example Qatar 0-1 Ecuador. Who scores next? */
            question_text: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label": "Qatar"
             *       },
             *       {
             *         "identifier": "away",
             *         "label": "Ecuador"
             *       },
             *       {
             *         "identifier": "none",
             *         "label": "No more goals"
             *       }
             *     ]
             */
            choices: components["schemas"]["RenderedChoice"][];
            /**
             * @description Snapshot of `issuance_state_extract` at issue.
             * @example {
             *       "score_at_issue": {
             *         "home": 0,
             *         "away": 1
             *       }
             *     }
             */
            state: {
                [key: string]: unknown;
            };
            /**
             * @description Provider event id of the triggering event.
             * @example metrica-g1-1021
             */
            trigger_event_id: string | null;
            /** @example 2 */
            period: string | null;
            /** @example 3127 */
            clock_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:08Z
             */
            issued_at: string;
            /**
             * Format: date-time
             * @description End of the answer window (Match questions: kick-off).
             * @example 2026-11-20T19:53:08Z
             */
            closes_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T20:10:00Z
             */
            resolved_at: string | null;
            /** @example away */
            correct_answer_identifier: string | null;
            /**
             * @description Points for a correct answer, fixed at issue.
             * @example 10
             */
            points: number;
            /** @example 152 */
            answer_count: number;
            crowd: components["schemas"]["Crowd"];
            sponsor_brand: components["schemas"]["NullableBrandSummary"];
            match_sponsor_brand: components["schemas"]["NullableBrandSummary"];
        };
        IssuanceDenialPage: {
            /** @description This page, newest first. */
            denials: components["schemas"]["IssuanceDenial"][];
            /**
             * @description Denials of the match that match the filter, on every page.
             * @example 60
             */
            denial_count: number;
        };
        IssuanceDenial: {
            /**
             * Format: uuid
             * @example 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
             */
            id: string;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /**
             * Format: uuid
             * @example 5b0c5f0e-8d7a-4e3b-9c1d-2e3f4a5b6c7d
             */
            listener_id: string | null;
            /**
             * Format: uuid
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            definition_id: string | null;
            /** @example Shot after a corner */
            definition_name: string;
            /**
             * @description Id of the first closed gate.
             * @example min_interval
             */
            failed_step: string;
            /** @example 40 s since the last question in lane default (minimum 120 s) */
            detail: string;
            /** @example metrica-g1-0412 */
            trigger_event_id: string;
            /** @example corner */
            trigger_event_type: string;
            /** @example 1 */
            period: string | null;
            /** @example 1204 */
            clock_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:20:05Z
             */
            created_at: string;
        };
        TimelinePoint: {
            /** @example 1021 */
            seq: number;
            /** @example metrica-g1-1021 */
            provider_event_id: string;
            /** @example shot */
            type: string;
            /** @example 2 */
            period: string | null;
            /** @example 3127 */
            clock_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:07Z
             */
            occurred_at: string;
            /**
             * @example home
             * @enum {string|null}
             */
            team: "home" | "away" | null;
            score: {
                /** @example 1 */
                home: number;
                /** @example 0 */
                away: number;
            };
            /** @example true */
            final: boolean;
        };
        TimelineMarker: {
            /**
             * @example issued
             * @enum {string}
             */
            kind: "issued" | "resolved" | "voided" | "revoked";
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            /**
             * Format: uuid
             * @example 2c5e7a90-1b3d-4f6a-8c2e-9d0f1a2b3c4d
             */
            definition_id: string | null;
            /** @example Next goal */
            definition_name: string;
            /** @example Qatar 0-1 Ecuador. Who scores next? */
            question_text: string;
            /**
             * @description Feed position of the event that caused the marker (null when not caused by an event).
             * @example 1021
             */
            seq: number | null;
            /** @example 2 */
            period: string | null;
            /** @example 3127 */
            clock_seconds: number | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:08Z
             */
            at: string;
            /** @example null */
            correct_answer_identifier: string | null;
        };
        EventTimeline: {
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /** @example Qatar */
            home_team: string;
            /** @example Ecuador */
            away_team: string;
            points: components["schemas"]["TimelinePoint"][];
            markers: components["schemas"]["TimelineMarker"][];
        };
        StartListenerRequest: {
            /**
             * @description Replay speed factor (1 is real time). Omitted, a new listener replays at 10, and an active one is returned whatever its speed.
             * @example 10
             */
            speed?: number;
            /**
             * @description Start the replay again from the beginning (see the operation); false when omitted.
             * @example false
             */
            restart?: boolean;
        };
        CloneMatchRequest: {
            /**
             * @description Replay speed factor (1 is real time) of the listener enqueued at once; 10 when omitted.
             * @example 10
             */
            speed?: number;
            /**
             * @description `now` (when omitted): enqueue the replay at once; `paused`: enqueue nothing (start it with start-listener after changing settings).
             * @example paused
             * @enum {string}
             */
            start?: "now" | "paused";
        };
        /**
         * @description `queued` (waiting for a process), `running` (claimed, lease renewed by heartbeat), `stopped` (by an operator), `completed` (feed ended with the match), `failed` (see `error`).
         * @example running
         * @enum {string}
         */
        ListenerStatus: "queued" | "running" | "stopped" | "completed" | "failed";
        MatchListener: {
            /**
             * Format: uuid
             * @example 5b0c5f0e-8d7a-4e3b-9c1d-2e3f4a5b6c7d
             */
            id: string;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            status: components["schemas"]["ListenerStatus"];
            source: components["schemas"]["ListenerSource"];
            /** @example 10 */
            speed: number | null;
            /**
             * @description The claim that runs it, `host:pid:instance#n` (the process, and its n-th claim). A new claim gets a new value, even by the same process, so a process that stalled past its lease and claimed the listener back is told apart from its earlier run.
             * @example host-1:4242:9f3a1c#3
             */
            claimed_by: string | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:30Z
             */
            lease_expires_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:15Z
             */
            heartbeat_at: string | null;
            /**
             * @description Feed messages processed so far (a takeover continues the count).
             * @example 1021
             */
            events_consumed: number;
            /**
             * @description A replay: how many recorded events it plays, known once a worker
             *     has started it (`events_consumed / events_total` is its progress).
             *     Null for a live feed, whose length is not known in advance, and
             *     for a replay no worker has started yet.
             * @example 1730
             */
            events_total: number | null;
            /** @example 6 */
            issued_count: number;
            /** @example 14 */
            denied_count: number;
            /** @example 5 */
            resolved_count: number;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:07Z
             */
            last_event_at: string | null;
            /** @example null */
            error: string | null;
            /**
             * Format: date-time
             * @example 2026-11-20T19:00:00Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:00:01Z
             */
            started_at: string | null;
            /**
             * Format: date-time
             * @example null
             */
            finished_at: string | null;
        };
        StopListenerResult: {
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /**
             * @example [
             *       "5b0c5f0e-8d7a-4e3b-9c1d-2e3f4a5b6c7d"
             *     ]
             */
            stopped_listener_ids: string[];
            /** @example 1 */
            revoked_issuance_count: number;
        };
        MatchListenerGroup: {
            match: components["schemas"]["MatchRef"];
            listeners: components["schemas"]["MatchListener"][];
        };
        ListenerLogLine: {
            /** @example 1 */
            line_no: number;
            /**
             * Format: date-time
             * @example 2026-11-20T19:00:01Z
             */
            at: string;
            /**
             * @example info
             * @enum {string}
             */
            level: "debug" | "info" | "warn" | "error";
            /** @example claimed by host-1:4242:9f3a1c#1 */
            message: string;
        };
        ListenerLog: {
            /**
             * Format: uuid
             * @example 5b0c5f0e-8d7a-4e3b-9c1d-2e3f4a5b6c7d
             */
            listener_id: string;
            lines: components["schemas"]["ListenerLogLine"][];
            /**
             * @description Number of the last line returned (pass it as `after` to poll); when no line is returned, the `after` given (0 without it).
             * @example 1
             */
            last_line_no: number;
        };
        EventRecording: {
            /**
             * Format: uuid
             * @example 5b0c5f0e-8d7a-4e3b-9c1d-2e3f4a5b6c7d
             */
            listener_id: string;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /** @example 1 */
            event_count: number;
            events: components["schemas"]["FeedEvent"][];
        };
        PushMessageTemplates: {
            /**
             * @description Liquid over `{question, match, user}` (resolution adds `result`).
             * @example {{ match.home_team }} vs {{ match.away_team }}
             */
            title_template: string;
            /** @example {{ question.text }} */
            body_template: string;
        };
        /**
         * @description Gates and templates. A notification goes to a user's devices when
         *     `enabled`, the event's section is enabled, the user's own flag
         *     (`notify_on_issuance` / `notify_on_resolve`) is on, the match is
         *     followed and the per-match cap is not reached. Issuance: only when at
         *     least `min_seconds_remaining` of the answer window is left, and only
         *     pivotal moments when `pivotal_only`. Resolution: only to users who
         *     answered when `only_answered`.
         */
        PushSettingsValues: {
            /** @example true */
            enabled: boolean;
            /** @example 20 */
            max_per_user_per_match: number;
            issuance: {
                /** @example true */
                enabled: boolean;
                /** @example false */
                pivotal_only: boolean;
                /** @example 10 */
                min_seconds_remaining: number;
                templates: components["schemas"]["PushMessageTemplates"];
            };
            resolution: {
                /** @example true */
                enabled: boolean;
                /** @example true */
                only_answered: boolean;
                templates: components["schemas"]["PushMessageTemplates"];
            };
        };
        /** @description Any subset of `PushSettingsValues`, nested objects included. */
        PushSettingsPatch: {
            /** @example true */
            enabled?: boolean;
            /** @example 10 */
            max_per_user_per_match?: number;
            issuance?: {
                /** @example true */
                enabled?: boolean;
                /** @example true */
                pivotal_only?: boolean;
                /** @example 15 */
                min_seconds_remaining?: number;
                templates?: {
                    /** @example New question */
                    title_template?: string;
                    /** @example {{ question.text }} */
                    body_template?: string;
                };
            };
            resolution?: {
                /** @example true */
                enabled?: boolean;
                /** @example true */
                only_answered?: boolean;
                templates?: {
                    /** @example Question resolved */
                    title_template?: string;
                    /** @example {% if result.correct %}Correct! +{{ result.points }}{% else %}Not this time{% endif %} */
                    body_template?: string;
                };
            };
        };
        PushSettings: {
            stored_settings: components["schemas"]["PushSettingsValues"];
            defaults: components["schemas"]["PushSettingsValues"];
            /**
             * @description Whether the stored settings equal the code defaults.
             * @example true
             */
            is_default: boolean;
            /**
             * Format: date-time
             * @example null
             */
            updated_at: string | null;
            /**
             * Format: uuid
             * @example null
             */
            updated_by_user_id: string | null;
        };
        /**
         * @description `delivered` (the push service accepted it), `failed` (it refused or could not be reached; see `status_code` and `error`), `skipped` (a gate held it back; see `error`).
         * @example delivered
         * @enum {string}
         */
        PushDeliveryStatus: "delivered" | "failed" | "skipped";
        PushDeliveryAttempt: {
            /**
             * Format: uuid
             * @example 4d5e6f70-8192-4a3b-9c4d-5e6f708192a3
             */
            id: string;
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            user_id: string;
            /** @example pixel-8-7f3a */
            device_id: string | null;
            /** @example web */
            platform: string | null;
            /**
             * @description Delivery provider (`webpush`, `log`).
             * @example webpush
             */
            provider: string;
            /**
             * @example issuance
             * @enum {string}
             */
            event: "issuance" | "resolution";
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string | null;
            status: components["schemas"]["PushDeliveryStatus"];
            /**
             * @description HTTP status from the push service.
             * @example 201
             */
            status_code: number | null;
            /** @example null */
            error: string | null;
            /** @example Qatar vs Ecuador */
            title: string;
            /** @example Who scores next? */
            body: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:09Z
             */
            created_at: string;
        };
        OpenQuestion: {
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            kind: components["schemas"]["QuestionKind"];
            match: components["schemas"]["MatchRef"];
            /** @example Qatar 0-1 Ecuador. Who scores next? */
            question_text: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label": "Qatar"
             *       },
             *       {
             *         "identifier": "away",
             *         "label": "Ecuador"
             *       }
             *     ]
             */
            choices: components["schemas"]["RenderedChoice"][];
            /** @example false */
            is_pivotal_moment: boolean;
            /** @example 10 */
            points: number;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:08Z
             */
            issued_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:53:08Z
             */
            closes_at: string;
            /**
             * @description Whole seconds until `closes_at`.
             * @example 42
             */
            seconds_remaining: number;
            /**
             * @description The caller's selected choice identifier, if any.
             * @example null
             */
            current_answer: string | null;
            crowd: components["schemas"]["NullableCrowd"];
            sponsor_brand: components["schemas"]["NullableBrandSummary"];
            match_sponsor_brand: components["schemas"]["NullableBrandSummary"];
        };
        /**
         * @description A settled question, self-contained (the match, the question text,
         *     its choices, the correct choice), with how everyone answered
         *     (`crowd`, final) and the receiver's own answer: the live stream's `resolution` message, also listed by
         *     `GET /api/matches/{match_id}/resolutions` to catch up, so a client
         *     handles both with the same code.
         */
        QuestionResolution: {
            /**
             * @description Always `resolution` (the stream's message type).
             * @example resolution
             * @enum {string}
             */
            type: "resolution";
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            /**
             * @description This settlement's number among its match's: 1, 2, 3, ... in the
             *     order they were committed, no gaps. The cursor a client catches
             *     up from (`GET /api/matches/{match_id}/resolutions?after=`).
             * @example 4
             */
            resolution_seq: number;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            kind: components["schemas"]["QuestionKind"];
            match: components["schemas"]["MatchRef"];
            /**
             * @description The question as it was issued, so a client that never saw it can show it.
             * @example Qatar 0-1 Ecuador. Who scores next?
             */
            question_text: string;
            /**
             * @description The choices as issued (identifier and label); `correct_answer_identifier` and the answer's `selected_answer_identifier` name one of them.
             * @example [
             *       {
             *         "identifier": "home",
             *         "label": "Qatar"
             *       },
             *       {
             *         "identifier": "away",
             *         "label": "Ecuador"
             *       },
             *       {
             *         "identifier": "none",
             *         "label": "No more goals"
             *       }
             *     ]
             */
            choices: components["schemas"]["RenderedChoice"][];
            /**
             * @description `voided`: it could not resolve; `revoked`: an operator withdrew it. Neither scores.
             * @example resolved
             * @enum {string}
             */
            status: "resolved" | "voided" | "revoked";
            /**
             * @description The correct choice when `resolved`; null otherwise.
             * @example away
             */
            correct_answer_identifier: string | null;
            /**
             * @description Points a correct answer scores (fixed when the question was issued).
             * @example 10
             */
            points_possible: number;
            /**
             * Format: date-time
             * @example 2026-11-20T20:10:00Z
             */
            resolved_at: string | null;
            crowd: components["schemas"]["Crowd"];
            /** @description The receiver's own answer; null when they did not answer. */
            answer: {
                /** @example away */
                selected_answer_identifier: string;
                /**
                 * @example correct
                 * @enum {string}
                 */
                outcome: "correct" | "incorrect" | "void";
                /** @example 10 */
                points_awarded: number;
            } | null;
        };
        /**
         * @description How everyone answered a question ("62% said Ecuador"): the answers to
         *     each of its choices, in the question's order, and their share in
         *     whole percent. The shares add up to 100 (largest remainder: each
         *     share rounded down, then the points left over go to the largest
         *     remainders, an earlier choice first on a tie); all 0 while nobody
         *     has answered. A player sees it once they have answered the question
         *     or it has closed, never before, so the crowd cannot be copied; it is
         *     at most a second old while the question is open and fixed once the
         *     question settles. Every answer counts, those of deleted accounts
         *     too (anonymous numbers).
         */
        Crowd: {
            /**
             * @description Answers to the question.
             * @example 152
             */
            answer_count: number;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "count": 30,
             *         "percent": 20
             *       },
             *       {
             *         "identifier": "away",
             *         "count": 94,
             *         "percent": 62
             *       },
             *       {
             *         "identifier": "none",
             *         "count": 28,
             *         "percent": 18
             *       }
             *     ]
             */
            choices: components["schemas"]["CrowdChoice"][];
        };
        /** @description One choice's answers and share. */
        CrowdChoice: {
            /**
             * @description The choice (one of the question's `choices`).
             * @example away
             */
            identifier: string;
            /** @example 94 */
            count: number;
            /** @example 62 */
            percent: number;
        };
        /** @description How everyone answered (see `Crowd`), or null while the caller has not answered. */
        NullableCrowd: components["schemas"]["Crowd"] | components["schemas"]["NullValue"];
        AnswerRequest: {
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            /** @example home */
            selected_answer_identifier: string;
        };
        QuestionAnswer: {
            /**
             * Format: uuid
             * @example 1a2b3c4d-5e6f-4718-9a0b-1c2d3e4f5a6b
             */
            id: string;
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            /** @example home */
            selected_answer_identifier: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:20Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:31Z
             */
            updated_at: string;
        };
        AnswerHistoryItem: {
            /**
             * Format: uuid
             * @description Subject id for feedback on this answer.
             * @example 1a2b3c4d-5e6f-4718-9a0b-1c2d3e4f5a6b
             */
            answer_id: string;
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            kind: components["schemas"]["QuestionKind"];
            match: components["schemas"]["MatchRef"];
            /** @example Qatar 0-1 Ecuador. Who scores next? */
            question_text: string;
            /**
             * @example [
             *       {
             *         "identifier": "home",
             *         "label": "Qatar"
             *       },
             *       {
             *         "identifier": "away",
             *         "label": "Ecuador"
             *       }
             *     ]
             */
            choices: components["schemas"]["RenderedChoice"][];
            /** @example home */
            selected_answer_identifier: string;
            /**
             * Format: date-time
             * @example 2026-11-20T19:52:31Z
             */
            answered_at: string;
            issuance_status: components["schemas"]["IssuanceStatus"];
            outcome: components["schemas"]["AnswerOutcome"];
            /** @example home */
            correct_answer_identifier: string | null;
            /** @example 10 */
            points_awarded: number;
            /** @example 10 */
            points_possible: number;
            /**
             * Format: date-time
             * @example 2026-11-20T20:10:00Z
             */
            resolved_at: string | null;
            crowd: components["schemas"]["Crowd"];
            sponsor_brand: components["schemas"]["NullableBrandSummary"];
            match_sponsor_brand: components["schemas"]["NullableBrandSummary"];
        };
        FeedbackForm: {
            subject_types: {
                /** @example in_game_answer */
                subject_type: string;
                /** @example An in-game answer */
                label: string;
                /**
                 * @description The kind of answer-history row the subject is.
                 * @example in_game
                 * @enum {string}
                 */
                history_kind: "in_game" | "match";
                topics: {
                    /** @example wrong_result */
                    topic: string;
                    /** @example The result is wrong */
                    label: string;
                }[];
            }[];
            /** @example 1000 */
            description_max_length: number;
        };
        FeedbackCreate: {
            /**
             * @description One of the form's subject types (400 otherwise).
             * @example in_game_answer
             */
            subject_type: string;
            /**
             * Format: uuid
             * @description The caller's answer (`answer_id` of a history row).
             * @example 1a2b3c4d-5e6f-4718-9a0b-1c2d3e4f5a6b
             */
            subject_id: string;
            /**
             * @description One of the subject type's topics (400 otherwise).
             * @example wrong_result
             */
            topic: string;
            /**
             * @description At most `description_max_length` characters (400 otherwise).
             * @example The second goal came from a corner, not a free kick.
             */
            description?: string | null;
        };
        Feedback: {
            /**
             * Format: uuid
             * @example 0b7e3c9a-1f2d-4e5a-9b8c-7d6e5f4a3b2c
             */
            id: string;
            /**
             * Format: uuid
             * @example 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
             */
            user_id: string;
            /** @example in_game_answer */
            subject_type: string;
            /**
             * Format: uuid
             * @example 1a2b3c4d-5e6f-4718-9a0b-1c2d3e4f5a6b
             */
            subject_id: string;
            /** @example wrong_result */
            topic: string;
            /** @example The second goal came from a corner, not a free kick. */
            description: string | null;
            /**
             * Format: uuid
             * @example 7d444840-9dc0-11d1-b245-5ffdce74fad2
             */
            match_id: string;
            /**
             * Format: uuid
             * @example 8f9e0d1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f
             */
            question_issuance_id: string;
            /**
             * Format: date-time
             * @example 2026-11-20T20:15:00Z
             */
            created_at: string;
        };
        FeedbackList: {
            feedback: components["schemas"]["Feedback"][];
            /**
             * @description Rows matching the filters, before offset and limit.
             * @example 1
             */
            feedback_count: number;
        };
    };
    responses: {
        /** @description Missing, invalid or revoked API key (or bad login credentials). */
        Unauthorized: {
            headers: {
                "X-Error-Code": components["headers"]["ErrorCode"];
                /** @description Authentication scheme to use. */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "missing or invalid API key"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many sign-in attempts for this login name from this address, or from this address overall; try again after `Retry-After` seconds. */
        TooManyAttempts: {
            headers: {
                "X-Error-Code": components["headers"]["ErrorCode"];
                /** @description Seconds until the next attempt is accepted. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "too many sign-in attempts; try again in 840 seconds"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many mails asked for to this recipient from this address, or from this address overall; try again after `Retry-After` seconds. */
        TooManyMails: {
            headers: {
                "X-Error-Code": components["headers"]["ErrorCode"];
                /** @description Seconds until the next mail is accepted. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "too many mails asked for; try again in 2400 seconds"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Authenticated, but not an admin (an `[Admin]` operation). */
        Forbidden: {
            headers: {
                /** @description The error's stable code (see `ErrorCode`). */
                "X-Error-Code": "auth.forbidden";
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request body did not arrive within the request timeout (60 s by
         *     default, `HTTP_REQUEST_TIMEOUT_SECONDS`): the connection is closed.
         */
        RequestTimeout: {
            headers: {
                "X-Error-Code": components["headers"]["ErrorCode"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "the request did not arrive in time (headers within 10 s, the whole request within 60 s)"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is over the limit (JSON bodies, uploads and CSV imports each have theirs; the README lists them). Answered at once, and the rest of the body is not read: before any of it when the declared `Content-Length` is over the limit, as soon as a chunked body (or a compressed one, counted decompressed) passes it. The connection closes after the answer (`Connection: close`). */
        PayloadTooLarge: {
            headers: {
                "X-Error-Code": components["headers"]["ErrorCode"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "request body exceeds the limit of 1048576 bytes"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The service cannot answer now; `Retry-After` says when to try again.
         *     A client keeps its key: this is never a verdict on the key (that is
         *     401). `X-Error-Code` says which cause:
         *     `database.unavailable`, the database is out of reach (any operation,
         *     during an outage; the request was not carried out, except that a
         *     single write already on its way to a database that then froze may be
         *     applied when it resumes: repeat it if you still want it);
         *     `database.outcome_unknown`, the change was sent to the database but
         *     its COMMIT went unconfirmed (a freeze, a lost connection): it may
         *     have been stored, so read it back before repeating it (a login that
         *     answers this hands no key: sign in again);
         *     `service.overloaded`, every database connection stayed busy while
         *     the database answered (a burst of load): nothing was done, retry;
         *     `service.shutting_down`, the process is shutting down (the request
         *     was refused before anything ran; `Connection: close`, another
         *     process answers). Brand operations that touch a logo also answer 503
         *     when object storage is not configured (no `Retry-After`: that lasts
         *     until the service is reconfigured).
         */
        ServiceUnavailable: {
            headers: {
                "X-Error-Code": components["headers"]["ErrorCode"];
                /** @description Seconds to wait before trying again (sent when the database is out of reach or the process is shutting down, not when logo storage is unconfigured). */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Private player group id. */
        PlayerGroupId: string;
        /** @description All time, or the calendar day, week (from Monday) or month; which one is chosen by `date`. */
        LeaderboardPeriod: "all_time" | "day" | "week" | "month";
        /**
         * @description With `period` day, week or month: the period containing this
         *     calendar date (past periods stay readable). Without it, the current
         *     period in the caller's `match_follow_timezone` (UTC for anonymous
         *     callers and blank zones). With `period=all_time`, 400. Any date of
         *     the years 0001 to 9999, as written (`0026-11-28` is in the year 26,
         *     not 1926); a period reaching outside them is 400
         *     `leaderboard.date_out_of_range`.
         */
        LeaderboardDate: string;
        /**
         * @description What the board is ranked by: `points` (the default), or the
         *     players' streaks of correct answers in the board's own scope and
         *     period - `current_streak` (the run they are on now) or
         *     `best_streak` (their longest run). A streak ranking breaks ties by
         *     the points ranking (points, correct answers, `reached_at`, user id;
         *     see `Leaderboard`). The same rows, player count and `me` either way;
         *     only the order and the ranks differ.
         */
        LeaderboardRankBy: "points" | "current_streak" | "best_streak";
        /** @description Rows to skip from the top (the first row returned has rank `offset + 1`). */
        LeaderboardOffset: number;
        /** @description Rows per page (1 to 100). */
        LeaderboardLimit: number;
        /** @description Brand id. */
        BrandId: string;
        /** @description Definition id. */
        DefinitionId: string;
        /** @description Restrict the inspection to this definition (404 when it is not a definition of the league and kind). */
        DefinitionIdQuery: string;
        /** @description Question group id. */
        GroupId: string;
        /** @description League id (UUID) or slug. */
        LeagueId: string;
        /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
        MatchId: string;
        /** @description Listener id. */
        ListenerId: string;
        /** @description User id. */
        UserId: string;
        /**
         * @description League slug. A slug the service does not support (see
         *     `GET /api/leagues`) gives 400 naming it; a supported league that is
         *     missing from this database gives 404.
         */
        LeagueSlugRequired: string;
        /** @description League slug; an unsupported slug gives 400 naming it. */
        LeagueSlugOptional: string;
        /** @description In-game definitions: also list archived ones. Match question definitions: also list inactive ones. */
        IncludeInactive: boolean;
        /** @description Case-insensitive substring of the name or the id. */
        DefinitionSearch: string;
        /** @description Created at or after (inclusive); give with `created_to`. */
        CreatedFrom: string;
        /** @description Created before (exclusive); give with `created_from`. */
        CreatedTo: string;
        /** @description Updated at or after (inclusive); give with `updated_to`. */
        UpdatedFrom: string;
        /** @description Updated before (exclusive); give with `updated_from`. */
        UpdatedTo: string;
        /** @description Only report what the import would do (default). `false` applies it. */
        DryRun: boolean;
        /** @description Which definitions to inspect. */
        QuestionKind: "in_game" | "match";
        /** @description Maximum number of rows (1 to 500). */
        Limit: number;
        /** @description Rows to skip. */
        Offset: number;
        /** @description Sort direction. */
        SortDir: "asc" | "desc";
        /** @description Maximum number of answers, not counting locked pending Match answers (which are always listed first). Without it, every answer. */
        HistoryLimit: number;
        /** @description Only pivotal-moment definitions (true) or only regular ones (false). */
        PivotalMomentFilter: boolean;
        /** @description Answers to skip (newest first), not counting locked pending Match answers, which are listed on the first page only (offset 0). */
        HistoryOffset: number;
        /** @description Only answers on this match (internal `Match.id`). */
        HistoryMatchId: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The error's stable code (`<area>.<reason>`, for example
         *     `brand.name_taken`, `answer.window_expired`, `request.invalid`,
         *     `database.unavailable`): what a client branches on, while `detail` is
         *     prose for people and may change. Sent with every error response.
         *     The codes of each area are declared once in the service's
         *     `src/modules/<area>/<area>.errors.ts` (the HTTP layer's, such as
         *     `request.*` and `route.*`, in `src/http/http.errors.ts`).
         */
        ErrorCode: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    registerUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterRequest"];
            };
        };
        responses: {
            /** @description Account created; the key is shown once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.username_taken" | "user.email_taken" | "user.display_name_locked" | "user.self_lockout";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Too many registrations from this client address; try again after `Retry-After` seconds. */
            429: {
                headers: {
                    "X-Error-Code": components["headers"]["ErrorCode"];
                    /** @description Seconds until the next registration is accepted. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "too many accounts registered from this address; try again in 1800 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    loginUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Logged in; the new key is shown once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    logoutUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            /** @description Accepted; a link is mailed if an active account has this address. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyMails"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordReset"];
            };
        };
        responses: {
            /** @description The password is set; the new key is shown once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description The token is unknown, used, expired, or its account is no longer active. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.reset_token_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    requestEmailVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; the link is on its way. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description The request conflicts with the current state (see `detail`). */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.email_already_verified";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyMails"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    verifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailVerification"];
            };
        };
        responses: {
            /** @description The email is verified. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The token is unknown, used, expired, or for an address the account no longer has. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.verification_token_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createAdminApiSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description CSRF token of the admin session (rendered into the UI's pages). */
                "X-CSRF-Token"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A Bearer key for the signed-in admin. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "admin_session.csrf" | "admin_session.not_admin" | "admin_session.inactive";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listBrands: {
        parameters: {
            query?: {
                /** @description Case-insensitive search over name, colors, logo filename and id. */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Brands ordered by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Brand"][];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createBrand: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["BrandCreateForm"];
            };
        };
        responses: {
            /** @description Brand created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Brand"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.invalid_color" | "brand.invalid_name" | "brand.logo_type" | "brand.logo_empty" | "brand.logo_too_large" | "brand.logo_conflict";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBrand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The brand. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Brand"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteBrand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateBrand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["BrandUpdateForm"];
            };
        };
        responses: {
            /** @description The updated brand. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Brand"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.invalid_color" | "brand.invalid_name" | "brand.logo_conflict" | "brand.logo_type" | "brand.logo_too_large" | "brand.logo_empty";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listBrandQuestionSponsorships: {
        parameters: {
            query?: {
                /** @description Most slots returned. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: components["parameters"]["Offset"];
                /**
                 * @description Matches to list slots for; repeat the parameter for several. `match_ids=` alone means an empty list.
                 * @example [
                 *       "7d444840-9dc0-11d1-b245-5ffdce74fad2"
                 *     ]
                 */
                match_ids?: string[];
            };
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sponsorship slots. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionSponsorship"][];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    assignBrandQuestionSponsorships: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Brand id. */
                brand_id: components["parameters"]["BrandId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuestionSponsorshipAssignment"];
            };
        };
        responses: {
            /** @description The slots of this brand on each target match after the assignment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionSponsorshipAssignmentResult"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "sponsorship.slots_and_random" | "sponsorship.nothing_to_assign" | "sponsorship.invalid_target" | "sponsorship.match_not_editable" | "brand.invalid_color" | "brand.invalid_name" | "brand.logo_conflict" | "brand.logo_empty" | "brand.logo_too_large" | "brand.logo_type" | "match.invalid_feed_url" | "match.invalid_range";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "brand.not_found" | "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "sponsorship.over_capacity" | "sponsorship.duplicate_number" | "sponsorship.number_taken" | "sponsorship.not_enough_numbers" | "brand.name_taken" | "match.already_played" | "match.cap_below_slots" | "match.listener_active" | "match.not_closed" | "match.not_followable" | "match.not_test" | "match.nothing_to_replay";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionSampleCatalog: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
                /** @description Add one sample event per event type. */
                include_samples?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The league's event catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SampleCatalog"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    previewQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuestionPreviewRequest"];
            };
        };
        responses: {
            /** @description The rendered question. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionPreview"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.template_invalid" | "definition.expression_invalid" | "preview.duplicate_choice" | "preview.sample_required" | "preview.sample_event_invalid" | "league.unsupported" | "definition.duplicate_choice" | "definition.invalid_event_type" | "definition.invalid_name" | "definition.invalid_range" | "definition.invalid_timeout_choice" | "definition.unknown_event_type" | "definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "sample_event.not_found" | "definition.not_found" | "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportQuestionDefinitions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV file (UTF-8, header row first). */
            200: {
                headers: {
                    /** @description Suggested file name. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    importQuestionDefinitions: {
        parameters: {
            query?: {
                /** @description Only report what the import would do (default). `false` applies it. */
                dry_run?: components["parameters"]["DryRun"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["CsvImportForm"];
            };
        };
        responses: {
            /** @description Import preview (dry run) or applied result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description Malformed CSV, over a limit, or refused because a row failed; same shape as the preview. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "import.invalid_file" | "import.refused";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listQuestionDefinitions: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
                /** @description In-game definitions: also list archived ones. Match question definitions: also list inactive ones. */
                include_inactive?: components["parameters"]["IncludeInactive"];
                /** @description Case-insensitive substring of the name or the id. */
                q?: components["parameters"]["DefinitionSearch"];
                /** @description Only pivotal-moment definitions (true) or only regular ones (false). */
                is_pivotal_moment?: components["parameters"]["PivotalMomentFilter"];
                /** @description Created at or after (inclusive); give with `created_to`. */
                created_from?: components["parameters"]["CreatedFrom"];
                /** @description Created before (exclusive); give with `created_from`. */
                created_to?: components["parameters"]["CreatedTo"];
                /** @description Updated at or after (inclusive); give with `updated_to`. */
                updated_from?: components["parameters"]["UpdatedFrom"];
                /** @description Updated before (exclusive); give with `updated_from`. */
                updated_to?: components["parameters"]["UpdatedTo"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Definition summaries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinitionSummary"][];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported" | "definition.invalid_range" | "definition.duplicate_choice" | "definition.expression_invalid" | "definition.invalid_event_type" | "definition.invalid_name" | "definition.invalid_timeout_choice" | "definition.template_invalid" | "definition.unknown_event_type" | "definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createQuestionDefinition: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuestionDefinitionInput"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinition"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported" | "definition.expression_invalid" | "definition.template_invalid" | "definition.duplicate_choice" | "definition.unknown_group" | "definition.invalid_name" | "definition.unknown_event_type" | "definition.invalid_event_type" | "definition.invalid_timeout_choice" | "definition.invalid_range";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.name_taken" | "definition.in_use" | "league.cap_below_slots";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinition"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replaceQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuestionDefinitionInput"];
            };
        };
        responses: {
            /** @description The replaced definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinition"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.template_invalid" | "definition.duplicate_choice" | "definition.expression_invalid" | "definition.invalid_event_type" | "definition.invalid_name" | "definition.invalid_range" | "definition.invalid_timeout_choice" | "definition.unknown_event_type" | "definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_definition.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.name_taken" | "definition.in_use";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_definition.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.in_use" | "definition.name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cloneQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CloneRequest"];
            };
        };
        responses: {
            /** @description The copy. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinition"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.invalid_name" | "definition.duplicate_choice" | "definition.expression_invalid" | "definition.invalid_event_type" | "definition.invalid_range" | "definition.invalid_timeout_choice" | "definition.template_invalid" | "definition.unknown_event_type" | "definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_definition.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.name_taken" | "definition.in_use";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    archiveQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinition"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    activateQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionDefinition"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportMatchQuestionDefinitions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV file (UTF-8, header row first). */
            200: {
                headers: {
                    /** @description Suggested file name. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    importMatchQuestionDefinitions: {
        parameters: {
            query?: {
                /** @description Only report what the import would do (default). `false` applies it. */
                dry_run?: components["parameters"]["DryRun"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["CsvImportForm"];
            };
        };
        responses: {
            /** @description Import preview (dry run) or applied result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description Malformed CSV, over a limit, or refused because a row failed; same shape as the preview. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "import.invalid_file" | "import.refused";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMatchQuestionDefinitions: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
                /** @description In-game definitions: also list archived ones. Match question definitions: also list inactive ones. */
                include_inactive?: components["parameters"]["IncludeInactive"];
                /** @description Case-insensitive substring of the name or the id. */
                q?: components["parameters"]["DefinitionSearch"];
                /** @description Only pivotal-moment definitions (true) or only regular ones (false). */
                is_pivotal_moment?: components["parameters"]["PivotalMomentFilter"];
                /** @description Created at or after (inclusive); give with `created_to`. */
                created_from?: components["parameters"]["CreatedFrom"];
                /** @description Created before (exclusive); give with `created_from`. */
                created_to?: components["parameters"]["CreatedTo"];
                /** @description Updated at or after (inclusive); give with `updated_to`. */
                updated_from?: components["parameters"]["UpdatedFrom"];
                /** @description Updated before (exclusive); give with `updated_from`. */
                updated_to?: components["parameters"]["UpdatedTo"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Definitions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"][];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported" | "definition.invalid_range" | "definition.duplicate_choice" | "definition.expression_invalid" | "definition.invalid_event_type" | "definition.invalid_name" | "definition.invalid_timeout_choice" | "definition.template_invalid" | "definition.unknown_event_type" | "definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createMatchQuestionDefinition: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MatchQuestionDefinitionInput"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported" | "definition.template_invalid" | "definition.expression_invalid" | "definition.duplicate_choice" | "match_definition.unknown_group" | "definition.invalid_name" | "definition.invalid_event_type" | "definition.invalid_range" | "definition.invalid_timeout_choice" | "definition.unknown_event_type" | "definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found" | "definition.not_found" | "match_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.name_taken" | "definition.in_use" | "definition.name_taken" | "league.cap_below_slots" | "match_definition.in_use";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMatchQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replaceMatchQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MatchQuestionDefinitionInput"];
            };
        };
        responses: {
            /** @description The replaced definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.template_invalid" | "definition.duplicate_choice" | "definition.expression_invalid" | "definition.invalid_event_type" | "definition.invalid_name" | "definition.invalid_range" | "definition.invalid_timeout_choice" | "definition.unknown_event_type" | "definition.unknown_group" | "match_definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.name_taken" | "definition.in_use" | "definition.name_taken" | "match_definition.in_use";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMatchQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.in_use" | "match_definition.name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cloneMatchQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CloneRequest"];
            };
        };
        responses: {
            /** @description The copy. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "definition.invalid_name" | "definition.duplicate_choice" | "definition.expression_invalid" | "definition.invalid_event_type" | "definition.invalid_range" | "definition.invalid_timeout_choice" | "definition.template_invalid" | "definition.unknown_event_type" | "definition.unknown_group" | "match_definition.unknown_group";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.name_taken" | "definition.in_use" | "definition.name_taken" | "match_definition.in_use";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    archiveMatchQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    activateMatchQuestionDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Definition id. */
                definition_id: components["parameters"]["DefinitionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchQuestionDefinition"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match_definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listQuestionGroups: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionGroup"][];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createQuestionGroup: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuestionGroupCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionGroup"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported" | "group.invalid_slug" | "period_distribution.invalid" | "group.invalid_name" | "group.slug_immutable";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "group.slug_taken" | "group.in_use" | "league.cap_below_slots";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportQuestionGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV file (UTF-8, header row first). */
            200: {
                headers: {
                    /** @description Suggested file name. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuestionGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Question group id. */
                group_id: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionGroup"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_group.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteQuestionGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Question group id. */
                group_id: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_group.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "group.in_use" | "group.slug_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateQuestionGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Question group id. */
                group_id: components["parameters"]["GroupId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Goal questions",
                 *       "description": "Questions about who scores next.",
                 *       "max_open_questions": 2,
                 *       "question_max_count": 4,
                 *       "min_interval_seconds": 180,
                 *       "period_distribution": {
                 *         "1": 5,
                 *         "2": 5
                 *       },
                 *       "answer_window_seconds": 45,
                 *       "points": 15,
                 *       "probability": 0.5
                 *     }
                 */
                "application/json": components["schemas"]["QuestionGroupPatch"];
            };
        };
        responses: {
            /** @description The updated group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionGroup"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "group.slug_immutable" | "period_distribution.invalid" | "group.invalid_name" | "group.invalid_slug";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "question_group.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listLeagues: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Leagues. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["League"][];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getLeague: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The league. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["League"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateLeague: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LeaguePatch"];
            };
        };
        responses: {
            /** @description The updated league. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["League"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "allowlist.unknown_definition" | "period_distribution.invalid" | "league.unsupported";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.cap_below_slots";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getLeagueQuestionInheritance: {
        parameters: {
            query?: {
                /** @description Which definitions to inspect. */
                kind?: components["parameters"]["QuestionKind"];
                /** @description Restrict the inspection to this definition (404 when it is not a definition of the league and kind). */
                definition_id?: components["parameters"]["DefinitionIdQuery"];
            };
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inspection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionInheritance"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMatches: {
        parameters: {
            query?: {
                /** @description League slug; an unsupported slug gives 400 naming it. */
                league?: components["parameters"]["LeagueSlugOptional"];
                /** @description Kick-off at or after this instant (UTC). */
                scheduled_from?: string;
                /** @description Kick-off before this instant (UTC). */
                scheduled_to?: string;
                /** @description One or more statuses (repeat the parameter). */
                status?: components["schemas"]["MatchStatus"][];
                /** @description Only test matches (true) or only real ones (false). */
                is_test?: boolean;
                /** @description Only matches whose listener events are (true) or are not (false) archived. */
                listener_events_archived?: boolean;
                /** @description Only matches the caller follows (true) or does not follow (false). Needs a key. */
                followed?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchListItem"][];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.invalid_range" | "league.unsupported" | "match.invalid_feed_url";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The match. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchView"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_test" | "match.already_played" | "match.cap_below_slots" | "match.listener_active" | "match.not_closed" | "match.not_followable" | "match.nothing_to_replay";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MatchPatch"];
            };
        };
        responses: {
            /** @description The match (detail view). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchDetail"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "period_distribution.invalid" | "allowlist.unknown_definition" | "match.invalid_feed_url" | "brand.invalid_color" | "brand.invalid_name" | "brand.logo_conflict" | "brand.logo_empty" | "brand.logo_too_large" | "brand.logo_type" | "match.invalid_range";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found" | "brand.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.cap_below_slots" | "brand.name_taken" | "match.already_played" | "match.listener_active" | "match.not_closed" | "match.not_followable" | "match.not_test" | "match.nothing_to_replay";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    followMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The follow (created or already present). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchFollow"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found" | "follow.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "follow.daily_limit" | "match.not_followable" | "follow.busy" | "match.already_played" | "match.cap_below_slots" | "match.listener_active" | "match.not_closed" | "match.not_test" | "match.nothing_to_replay";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unfollowMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The follow after unfollowing. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchFollow"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found" | "follow.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMatchQuestionIssuances: {
        parameters: {
            query?: {
                /** @description `in_game` (default), `match` (Match questions) or `all`. */
                kind?: "in_game" | "match" | "all";
            };
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Issuances. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionIssuance"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMatchResolutions: {
        parameters: {
            query?: {
                /** @description The cursor: only resolutions numbered above it (0, the default, gives the match's first ones). */
                after?: number;
                /** @description The most resolutions one answer lists (the lowest numbers first). */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Resolutions in the order of their `resolution_seq`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionResolution"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMatchQuestionInheritance: {
        parameters: {
            query?: {
                /** @description Which definitions to inspect. */
                kind?: components["parameters"]["QuestionKind"];
                /** @description Restrict the inspection to this definition (404 when it is not a definition of the league and kind). */
                definition_id?: components["parameters"]["DefinitionIdQuery"];
            };
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inspection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionInheritance"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found" | "definition.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMatchQuestionIssuanceDenials: {
        parameters: {
            query?: {
                /** @description Only denials whose first closed gate has this id. */
                failed_step?: string;
                /** @description Maximum number of rows (1 to 500). */
                limit?: components["parameters"]["Limit"];
                /** @description Rows to skip. */
                offset?: components["parameters"]["Offset"];
            };
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of denials and the total that match. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuanceDenialPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMatchEventTimeline: {
        parameters: {
            query?: {
                /** @description Only events of these types (repeat the parameter; at most 50). */
                types?: string[];
            };
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timeline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventTimeline"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cloneMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CloneMatchRequest"];
            };
        };
        responses: {
            /** @description The new test match (detail view). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchDetail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.unavailable_in_main" | "auth.forbidden";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_closed" | "match.nothing_to_replay" | "match.already_played" | "match.cap_below_slots" | "match.listener_active" | "match.not_followable" | "match.not_test";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    startMatchListener: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["StartListenerRequest"];
            };
        };
        responses: {
            /** @description The queued (or already active) listener. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchListener"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.unavailable_in_main" | "auth.forbidden";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.listener_active" | "match.already_played" | "match.not_test" | "match.nothing_to_replay" | "match.cap_below_slots" | "match.not_closed" | "match.not_followable";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    stopMatchListener: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was stopped. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StopListenerResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listMatchListeners: {
        parameters: {
            query: {
                /**
                 * @description League slug. A slug the service does not support (see
                 *     `GET /api/leagues`) gives 400 naming it; a supported league that is
                 *     missing from this database gives 404.
                 */
                league: components["parameters"]["LeagueSlugRequired"];
                /** @description Kick-off at or after this instant (UTC). */
                scheduled_from?: string;
                /** @description Kick-off before this instant (UTC). */
                scheduled_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matches with their listeners. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MatchListenerGroup"][];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.unsupported" | "match_listeners.invalid_range";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMatchListenerLog: {
        parameters: {
            query?: {
                /** @description Only lines after this line number (line numbers are 32-bit). */
                after?: number;
                /** @description Maximum number of lines. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Listener id. */
                listener_id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Log lines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListenerLog"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "listener.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    downloadMatchListenerLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Listener id. */
                listener_id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The whole log as a text file, one line per entry. */
            200: {
                headers: {
                    /** @description Suggested file name. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "listener.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    downloadMatchListenerEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Listener id. */
                listener_id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recording. */
            200: {
                headers: {
                    /** @description Suggested file name. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventRecording"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "listener.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserSelfPatch"];
            };
        };
        responses: {
            /** @description The updated profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.display_name_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.email_taken" | "user.display_name_locked" | "user.self_lockout" | "user.username_taken" | "user.display_name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyMails"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportCurrentUserData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's data. */
            200: {
                headers: {
                    /** @description `attachment` with a file name of the day. */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDataExport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountDeletion"];
            };
        };
        responses: {
            /** @description The account is deleted; its keys no longer work. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed (see `detail`). */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.password_mismatch";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state (see `detail`). */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.admin_cannot_delete";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            429: components["responses"]["TooManyAttempts"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCurrentUserPoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPoints"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    registerCurrentUserDevice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceRegistration"];
            };
        };
        responses: {
            /** @description Device refreshed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            /** @description Device registered. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "push_device.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteCurrentUserDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client-chosen device id used at registration. */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The device is not registered (any more). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Case-insensitive search over username, display name, email, names and id. */
                q?: string;
                /** @description Only admins (true) or only non-admins (false). */
                is_admin?: boolean;
                /** @description Only active (true) or only deactivated (false) accounts. */
                is_active?: boolean;
                /** @description Only users currently following this match. */
                followed_match_id?: string;
                /** @description Sort key. */
                sort_by?: "created_at" | "username" | "email" | "last_login_at";
                /** @description Sort direction. */
                sort_dir?: components["parameters"]["SortDir"];
                /** @description Rows to skip. */
                offset?: components["parameters"]["Offset"];
                /** @description Maximum number of rows (1 to 500). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.display_name_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.username_taken" | "user.display_name_locked" | "user.email_taken" | "user.self_lockout" | "user.display_name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deactivateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deactivated. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.self_lockout" | "user.display_name_locked" | "user.email_taken" | "user.username_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserAdminPatch"];
            };
        };
        responses: {
            /** @description The updated user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.display_name_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.self_lockout" | "user.username_taken" | "user.display_name_locked" | "user.email_taken" | "user.deleted" | "user.display_name_taken";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUserPoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Points. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPoints"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserQuestionAnswers: {
        parameters: {
            query?: {
                /** @description Maximum number of answers, not counting locked pending Match answers (which are always listed first). Without it, every answer. */
                limit?: components["parameters"]["HistoryLimit"];
                /** @description Answers to skip (newest first), not counting locked pending Match answers, which are listed on the first page only (offset 0). */
                offset?: components["parameters"]["HistoryOffset"];
                /** @description Only answers on this match (internal `Match.id`). */
                match_id?: components["parameters"]["HistoryMatchId"];
            };
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Answer history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnswerHistoryItem"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPushSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushSettings"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updatePushSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PushSettingsPatch"];
            };
        };
        responses: {
            /** @description The settings after the update. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushSettings"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "push_settings.template_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resetPushSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings after the reset (equal to the defaults). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushSettings"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPushDeliveryAttempts: {
        parameters: {
            query?: {
                /** @description Attempts for this user. */
                user_id?: string;
                /** @description Attempts for the user with this email. */
                email?: string;
                /** @description Maximum number of rows (1 to 500). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushDeliveryAttempt"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listOpenQuestions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open questions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenQuestion"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listQuestionAnswers: {
        parameters: {
            query?: {
                /** @description Maximum number of answers, not counting locked pending Match answers (which are always listed first). Without it, every answer. */
                limit?: components["parameters"]["HistoryLimit"];
                /** @description Answers to skip (newest first), not counting locked pending Match answers, which are listed on the first page only (offset 0). */
                offset?: components["parameters"]["HistoryOffset"];
                /** @description Only answers on this match (internal `Match.id`). */
                match_id?: components["parameters"]["HistoryMatchId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Answer history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnswerHistoryItem"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    upsertQuestionAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnswerRequest"];
            };
        };
        responses: {
            /** @description Answer replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionAnswer"];
                };
            };
            /** @description Answer created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionAnswer"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "answer.invalid_choice";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "answer.not_following";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "issuance.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "answer.already_resolved";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too late; the answer window has expired (Match questions are locked at kick-off). */
            410: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "answer.window_expired" | "answer.locked";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUserFeedbackForm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Subject types, topics per type and the description limit. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackForm"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserFeedback: {
        parameters: {
            query?: {
                /** @description Admin only; rows of this user. */
                user_id?: string;
                /** @description Rows about answers on this match. */
                match_id?: string;
                /** @description Created at or after (inclusive); give with `created_to`. */
                created_from?: components["parameters"]["CreatedFrom"];
                /** @description Created before (exclusive); give with `created_from`. */
                created_to?: components["parameters"]["CreatedTo"];
                /** @description Rows of this subject type. */
                subject_type?: string;
                /** @description Rows of this topic. */
                topic?: string;
                /** @description Rows to skip. */
                offset?: components["parameters"]["Offset"];
                /** @description Maximum number of rows (1 to 500). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of feedback. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackList"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "feedback.invalid_range" | "feedback.description_too_long" | "feedback.invalid_subject_type" | "feedback.invalid_topic" | "feedback.subject_kind_mismatch";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUserFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedbackCreate"];
            };
        };
        responses: {
            /** @description Filed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Feedback"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "feedback.subject_kind_mismatch" | "feedback.invalid_subject_type" | "feedback.invalid_topic" | "feedback.description_too_long" | "feedback.invalid_range";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "feedback.subject_not_found" | "feedback.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "feedback.subject_pending" | "feedback.duplicate";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUserFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Feedback id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Feedback"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "feedback.not_found" | "feedback.subject_not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOverallLeaderboard: {
        parameters: {
            query?: {
                /** @description All time, or the calendar day, week (from Monday) or month; which one is chosen by `date`. */
                period?: components["parameters"]["LeaderboardPeriod"];
                /**
                 * @description With `period` day, week or month: the period containing this
                 *     calendar date (past periods stay readable). Without it, the current
                 *     period in the caller's `match_follow_timezone` (UTC for anonymous
                 *     callers and blank zones). With `period=all_time`, 400. Any date of
                 *     the years 0001 to 9999, as written (`0026-11-28` is in the year 26,
                 *     not 1926); a period reaching outside them is 400
                 *     `leaderboard.date_out_of_range`.
                 */
                date?: components["parameters"]["LeaderboardDate"];
                /**
                 * @description What the board is ranked by: `points` (the default), or the
                 *     players' streaks of correct answers in the board's own scope and
                 *     period - `current_streak` (the run they are on now) or
                 *     `best_streak` (their longest run). A streak ranking breaks ties by
                 *     the points ranking (points, correct answers, `reached_at`, user id;
                 *     see `Leaderboard`). The same rows, player count and `me` either way;
                 *     only the order and the ranks differ.
                 */
                rank_by?: components["parameters"]["LeaderboardRankBy"];
                /** @description Rows to skip from the top (the first row returned has rank `offset + 1`). */
                offset?: components["parameters"]["LeaderboardOffset"];
                /** @description Rows per page (1 to 100). */
                limit?: components["parameters"]["LeaderboardLimit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the leaderboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Leaderboard"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "leaderboard.date_without_period" | "leaderboard.date_out_of_range" | "leaderboard.match_period" | "leaderboard.scope_incomplete" | "leaderboard.scope_mismatch";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getLeagueLeaderboard: {
        parameters: {
            query?: {
                /** @description All time, or the calendar day, week (from Monday) or month; which one is chosen by `date`. */
                period?: components["parameters"]["LeaderboardPeriod"];
                /**
                 * @description With `period` day, week or month: the period containing this
                 *     calendar date (past periods stay readable). Without it, the current
                 *     period in the caller's `match_follow_timezone` (UTC for anonymous
                 *     callers and blank zones). With `period=all_time`, 400. Any date of
                 *     the years 0001 to 9999, as written (`0026-11-28` is in the year 26,
                 *     not 1926); a period reaching outside them is 400
                 *     `leaderboard.date_out_of_range`.
                 */
                date?: components["parameters"]["LeaderboardDate"];
                /**
                 * @description What the board is ranked by: `points` (the default), or the
                 *     players' streaks of correct answers in the board's own scope and
                 *     period - `current_streak` (the run they are on now) or
                 *     `best_streak` (their longest run). A streak ranking breaks ties by
                 *     the points ranking (points, correct answers, `reached_at`, user id;
                 *     see `Leaderboard`). The same rows, player count and `me` either way;
                 *     only the order and the ranks differ.
                 */
                rank_by?: components["parameters"]["LeaderboardRankBy"];
                /** @description Rows to skip from the top (the first row returned has rank `offset + 1`). */
                offset?: components["parameters"]["LeaderboardOffset"];
                /** @description Rows per page (1 to 100). */
                limit?: components["parameters"]["LeaderboardLimit"];
            };
            header?: never;
            path: {
                /** @description League id (UUID) or slug. */
                league_id: components["parameters"]["LeagueId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the leaderboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Leaderboard"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "leaderboard.date_without_period" | "leaderboard.date_out_of_range" | "league.unsupported";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "league.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMatchLeaderboard: {
        parameters: {
            query?: {
                /**
                 * @description What the board is ranked by: `points` (the default), or the
                 *     players' streaks of correct answers in the board's own scope and
                 *     period - `current_streak` (the run they are on now) or
                 *     `best_streak` (their longest run). A streak ranking breaks ties by
                 *     the points ranking (points, correct answers, `reached_at`, user id;
                 *     see `Leaderboard`). The same rows, player count and `me` either way;
                 *     only the order and the ranks differ.
                 */
                rank_by?: components["parameters"]["LeaderboardRankBy"];
                /** @description Rows to skip from the top (the first row returned has rank `offset + 1`). */
                offset?: components["parameters"]["LeaderboardOffset"];
                /** @description Rows per page (1 to 100). */
                limit?: components["parameters"]["LeaderboardLimit"];
            };
            header?: never;
            path: {
                /** @description Internal match id (`Match.id`, not the provider's `sr_id`). */
                match_id: components["parameters"]["MatchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the leaderboard. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Leaderboard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "match.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPlayerGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The groups. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "5d7f9b1c-3e5a-4c7e-9f1b-3d5f7a9c1e3b",
                     *         "name": "Office World Cup",
                     *         "owner_id": "3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                     *         "is_owner": true,
                     *         "invite_code": "K7QX-2M9P-ZA",
                     *         "member_count": 2,
                     *         "max_members": 50,
                     *         "created_at": "2026-11-19T12:00:00Z"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["PlayerGroupSummary"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPlayerGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlayerGroupCreate"];
            };
        };
        responses: {
            /** @description The new group. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerGroup"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.name_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed (see `detail`). */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.email_unverified";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.too_many_groups" | "player_group.full" | "player_group.owner_cannot_be_removed";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    joinPlayerGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlayerGroupJoin"];
            };
        };
        responses: {
            /** @description The group joined. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerGroup"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed (see `detail`). */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "account.email_unverified";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.unknown_code" | "player_group.member_not_found" | "player_group.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.too_many_groups" | "player_group.full" | "player_group.owner_cannot_be_removed";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Too many join attempts by the caller or from the client address; try again after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Seconds until the next attempt is accepted. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "too many attempts to join a group; try again in 840 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlayerGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerGroup"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_found" | "player_group.member_not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deletePlayerGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_owner";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_found" | "player_group.member_not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    renamePlayerGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlayerGroupRename"];
            };
        };
        responses: {
            /** @description The renamed group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerGroup"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.name_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_owner";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_found" | "player_group.member_not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replacePlayerGroupInviteCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group with its new code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerGroup"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_owner";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_found" | "player_group.member_not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    leavePlayerGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Left. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_found" | "player_group.member_not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    removePlayerGroupMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description Authenticated, but not allowed to do this. */
            403: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_owner";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.member_not_found" | "player_group.not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request conflicts with the current state; `detail` says how. */
            409: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.owner_cannot_be_removed" | "player_group.full" | "player_group.too_many_groups";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlayerGroupLeaderboard: {
        parameters: {
            query?: {
                /** @description The board - the whole game, a league or a match. */
                scope?: "overall" | "league" | "match";
                /** @description With `scope=league` - the league's id or slug. */
                league?: string;
                /** @description With `scope=match` - the match. */
                match_id?: string;
                /** @description All time, or the calendar day, week (from Monday) or month; which one is chosen by `date`. */
                period?: components["parameters"]["LeaderboardPeriod"];
                /**
                 * @description With `period` day, week or month: the period containing this
                 *     calendar date (past periods stay readable). Without it, the current
                 *     period in the caller's `match_follow_timezone` (UTC for anonymous
                 *     callers and blank zones). With `period=all_time`, 400. Any date of
                 *     the years 0001 to 9999, as written (`0026-11-28` is in the year 26,
                 *     not 1926); a period reaching outside them is 400
                 *     `leaderboard.date_out_of_range`.
                 */
                date?: components["parameters"]["LeaderboardDate"];
                /**
                 * @description What the board is ranked by: `points` (the default), or the
                 *     players' streaks of correct answers in the board's own scope and
                 *     period - `current_streak` (the run they are on now) or
                 *     `best_streak` (their longest run). A streak ranking breaks ties by
                 *     the points ranking (points, correct answers, `reached_at`, user id;
                 *     see `Leaderboard`). The same rows, player count and `me` either way;
                 *     only the order and the ranks differ.
                 */
                rank_by?: components["parameters"]["LeaderboardRankBy"];
            };
            header?: never;
            path: {
                /** @description Private player group id. */
                player_group_id: components["parameters"]["PlayerGroupId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group's board. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Leaderboard"];
                };
            };
            /** @description The request is well-formed but breaks a rule of the service; `detail` says which. */
            400: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "leaderboard.scope_incomplete" | "leaderboard.scope_mismatch" | "leaderboard.match_period" | "leaderboard.date_out_of_range" | "leaderboard.date_without_period" | "match.invalid_feed_url" | "match.invalid_range" | "player_group.name_invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "player_group.not_found" | "match.not_found" | "player_group.member_not_found" | "player_group.unknown_code";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCurrentUserLeaderboardPositions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's positions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserLeaderboardPositions"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUserLeaderboardPositions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id. */
                user_id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The positions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserLeaderboardPositions"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The resource (named in `detail`) does not exist. */
            404: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "user.not_found";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /** @description The request does not match the contract (including malformed JSON). */
            422: {
                headers: {
                    /** @description The error's stable code (see `ErrorCode`); one of these. */
                    "X-Error-Code": "request.invalid";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
