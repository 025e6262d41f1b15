// DO NOT EDIT: generated from openapi/asyncapi.yaml (and the schemas of openapi/openapi.yaml it uses) by `npm run generate`.
/* eslint-disable */
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        HelloMessage: {
            /** @enum {string} */
            type: "hello";
            /**
             * @description Version of this message set.
             * @enum {integer}
             */
            protocol: 1;
            /** Format: uuid */
            user_id: string;
            /** Format: date-time */
            server_time: string;
            /** @description Interval of the server's WebSocket pings; a socket that misses one is terminated at the next. */
            heartbeat_seconds: number;
            /** @description The matches whose messages this socket receives. */
            followed_match_ids: string[];
            /**
             * @description When the service sends Web Push (`PUSH_PROVIDER=webpush`): its
             *     VAPID public key (base64url, uncompressed P-256), the
             *     `applicationServerKey` a browser subscribes with before it
             *     registers the subscription at `POST /api/users/me/devices`.
             *     Null when the service does not send Web Push.
             * @example BNbxGYNMhEIi9zrneh7mqV4EUanjLUK3m-mYZBc62frMKrEoMk88r3Lk596T0ck9xlT-RCE2lhbUyi9z5Ezci1M
             */
            web_push_public_key: string | null;
        };
        OpenQuestionsMessage: {
            /** @enum {string} */
            type: "open_questions";
            /**
             * Format: uuid
             * @description null on connect (every followed match); a match id after following it (that match only).
             */
            match_id: string | null;
            questions: components["schemas"]["OpenQuestion"][];
            /** @description The state of each match in scope (every followed match on connect, ordered by kick-off; the one match after following it). */
            matches: {
                /** Format: uuid */
                match_id: string;
                /** @description The number of the match's latest settlement when this state was read (0 before the first). In a snapshot it is where the client's cursor of the match starts; a `match_state` may count settlements whose `resolution` is still on its way. */
                resolution_seq: number;
                status: components["schemas"]["MatchStatus"];
                /** @description Current period key (see `League.periods`); null before kick-off. */
                period: string | null;
                /** @description Match clock in seconds as last reported by the feed; null before kick-off. */
                clock_seconds: number | null;
                /** @description Null before kick-off. */
                home_score: number | null;
                /** @description Null before kick-off. */
                away_score: number | null;
            }[];
        };
        QuestionMessage: {
            /** @enum {string} */
            type: "question";
            question: components["schemas"]["OpenQuestion"];
        };
        ResolutionMessage: components["schemas"]["QuestionResolution"];
        MatchStateMessage: {
            /** @enum {string} */
            type: "match_state";
            /** @description Where play stands on a match, as a live header shows it. */
            match: {
                /** Format: uuid */
                match_id: string;
                /** @description The number of the match's latest settlement when this state was read (0 before the first). In a snapshot it is where the client's cursor of the match starts; a `match_state` may count settlements whose `resolution` is still on its way. */
                resolution_seq: number;
                status: components["schemas"]["MatchStatus"];
                /** @description Current period key (see `League.periods`); null before kick-off. */
                period: string | null;
                /** @description Match clock in seconds as last reported by the feed; null before kick-off. */
                clock_seconds: number | null;
                /** @description Null before kick-off. */
                home_score: number | null;
                /** @description Null before kick-off. */
                away_score: number | null;
            };
        };
        LeaderboardMessage: {
            /** @enum {string} */
            type: "leaderboard";
            /** Format: uuid */
            match_id: string;
            /** @description Players on the match's board. */
            player_count: number;
            /** @description The first rows of the board, in rank order. */
            top: components["schemas"]["LeaderboardEntry"][];
            me: components["schemas"]["NullableLeaderboardEntry"];
        };
        GroupLeaderboardMessage: {
            /** @enum {string} */
            type: "group_leaderboard";
            /** Format: uuid */
            group_id: string;
            /** Format: uuid */
            match_id: string;
            /** @description Members of the group on the match's board (members who have not answered a question of the match, or are hidden from boards, are not on it). */
            player_count: number;
            /** @description Every member on the match's board in rank order, ranks counted among the group (1, 2, ...): the rows of `GET /api/player-groups/{player_group_id}/leaderboard?scope=match&match_id=<id>`. */
            rows: components["schemas"]["LeaderboardEntry"][];
            me: components["schemas"]["NullableLeaderboardEntry"];
        };
        GroupSubscribedMessage: {
            /** @enum {string} */
            type: "group_subscribed";
            /** Format: uuid */
            group_id: string;
        };
        GroupUnsubscribedMessage: {
            /** @enum {string} */
            type: "group_unsubscribed";
            /** Format: uuid */
            group_id: string;
            /** @enum {string} */
            reason: "requested" | "not_a_member";
        };
        LockedMessage: {
            /** @enum {string} */
            type: "locked";
            /** Format: uuid */
            question_issuance_id: string;
            /** Format: uuid */
            match_id: string;
        };
        MatchClosedMessage: {
            /** @enum {string} */
            type: "match_closed";
            /** Format: uuid */
            match_id: string;
            /** @enum {string} */
            status: "ended" | "closed" | "cancelled";
        };
        UnfollowedMessage: {
            /** @enum {string} */
            type: "unfollowed";
            /** Format: uuid */
            match_id: string;
        };
        ResyncMessage: {
            /** @enum {string} */
            type: "resync";
            detail: string;
        };
        PongMessage: {
            /** @enum {string} */
            type: "pong";
        };
        ErrorMessage: {
            /** @enum {string} */
            type: "error";
            /**
             * @description What was refused: `stream.unknown_message`, a message that is none of the client messages; `player_group.not_found`, a `subscribe_group` naming a group that does not exist or that the user is not in; `stream.unavailable`, a `subscribe_group` that could not be checked (the database is out of reach or busy): send it again later.
             * @enum {string}
             */
            code: "stream.unknown_message" | "player_group.not_found" | "stream.unavailable";
            detail: string;
        };
        PingMessage: {
            /** @enum {string} */
            type: "ping";
        };
        SubscribeGroupMessage: {
            /** @enum {string} */
            type: "subscribe_group";
            /**
             * Format: uuid
             * @description The group's id (`PlayerGroup.id`).
             */
            group_id: string;
        };
        UnsubscribeGroupMessage: {
            /** @enum {string} */
            type: "unsubscribe_group";
            /** Format: uuid */
            group_id: string;
        };
        /** @description The caller's own row, wherever it ranks; null for anonymous callers and for callers not on the board (nothing scored in it yet, or hidden). */
        NullableLeaderboardEntry: components["schemas"]["LeaderboardEntry"] | components["schemas"]["NullValue"];
        /**
         * @description JSON null.
         * @example null
         * @enum {object|null}
         */
        NullValue: never | null;
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
        RenderedChoice: {
            /** @example home */
            identifier: string;
            /** @example Qatar */
            label: string;
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
        /**
         * @description `in_game`: issued by a listener on a live event; `match`: a pre-game (Match) question, issued before kick-off and resolved from the result.
         * @example in_game
         * @enum {string}
         */
        QuestionKind: "in_game" | "match";
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
        /** @description A brand, or null. */
        NullableBrandSummary: components["schemas"]["BrandSummary"] | components["schemas"]["NullValue"];
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
        /** @description How everyone answered (see `Crowd`), or null while the caller has not answered. */
        NullableCrowd: components["schemas"]["Crowd"] | components["schemas"]["NullValue"];
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

export type HelloMessage = components['schemas']['HelloMessage'];
export type OpenQuestionsMessage = components['schemas']['OpenQuestionsMessage'];
export type QuestionMessage = components['schemas']['QuestionMessage'];
export type ResolutionMessage = components['schemas']['ResolutionMessage'];
export type MatchStateMessage = components['schemas']['MatchStateMessage'];
export type LeaderboardMessage = components['schemas']['LeaderboardMessage'];
export type GroupLeaderboardMessage = components['schemas']['GroupLeaderboardMessage'];
export type GroupSubscribedMessage = components['schemas']['GroupSubscribedMessage'];
export type GroupUnsubscribedMessage = components['schemas']['GroupUnsubscribedMessage'];
export type LockedMessage = components['schemas']['LockedMessage'];
export type MatchClosedMessage = components['schemas']['MatchClosedMessage'];
export type UnfollowedMessage = components['schemas']['UnfollowedMessage'];
export type ResyncMessage = components['schemas']['ResyncMessage'];
export type PongMessage = components['schemas']['PongMessage'];
export type ErrorMessage = components['schemas']['ErrorMessage'];
export type PingMessage = components['schemas']['PingMessage'];
export type SubscribeGroupMessage = components['schemas']['SubscribeGroupMessage'];
export type UnsubscribeGroupMessage = components['schemas']['UnsubscribeGroupMessage'];
