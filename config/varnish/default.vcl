vcl 4.1;

# Varnish in front of one machine's web processes (decision 009). The site says how long a page may
# be kept here in Surrogate-Control (browsers get Cache-Control, which asks them to revalidate), and
# names what each page shows in Surrogate-Key; a change sends BAN with the keys it touched in
# X-Purge-Keys (PURGER=varnish, server/cache/varnish.ts), from this machine only.
#
# The backend below is the site on this machine (PORT 3000); change it where the site listens
# elsewhere. Started as, for instance: varnishd -a :80 -f /path/to/default.vcl -s malloc,1G

import std;

backend default {
    .host = "127.0.0.1";
    .port = "3000";
}

acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "BAN") {
        if (client.ip !~ purgers) {
            return (synth(405, "Not allowed"));
        }
        # Keys are words of [a-z0-9_-] (shared/cache-keys.ts); anything else is refused, so the
        # ban's regular expression is only ever alternatives of plain words.
        if (!req.http.X-Purge-Keys || req.http.X-Purge-Keys !~ "^[a-z0-9_ -]+$") {
            return (synth(400, "X-Purge-Keys must list keys"));
        }
        # Only obj.* in the expression: the ban lurker removes matching objects in the background.
        ban("obj.http.Surrogate-Key ~ (^|[[:space:]])(" +
            regsuball(regsub(req.http.X-Purge-Keys, "^ +| +$", ""), " +", "|") +
            ")([[:space:]]|$)");
        return (synth(200, "Banned"));
    }
}

sub vcl_backend_response {
    # The site's lifetime for shared caches: Surrogate-Control's max-age, and its
    # stale-while-revalidate as grace (an old page is sent while a new one is fetched).
    if (beresp.http.Surrogate-Control ~ "max-age=[0-9]+") {
        if (beresp.http.Set-Cookie || beresp.http.Surrogate-Control ~ "no-store") {
            set beresp.uncacheable = true;
            set beresp.ttl = 120s;
            return (deliver);
        }
        set beresp.ttl = std.duration(
            regsub(beresp.http.Surrogate-Control, ".*max-age=([0-9]+).*", "\1") + "s", 0s);
        if (beresp.http.Surrogate-Control ~ "stale-while-revalidate=[0-9]+") {
            set beresp.grace = std.duration(
                regsub(beresp.http.Surrogate-Control,
                    ".*stale-while-revalidate=([0-9]+).*", "\1") + "s", 0s);
        } else {
            set beresp.grace = 0s;
        }
        return (deliver);
    }
    # Anything else (pictures, feeds, static files): Varnish's own rules read Cache-Control.
}

sub vcl_deliver {
    # What this cache read is not for browsers (Surrogate-Key stays on the stored object, for bans).
    unset resp.http.Surrogate-Control;
    unset resp.http.Surrogate-Key;
    unset resp.http.Cache-Tag;
}
