#!/bin/sh
# Starts HAProxy. Without a certificate in /etc/haproxy/certs/site.pem (certificate chain and key in
# one PEM file), makes a self-signed one for PROXY_HOSTNAME so HTTPS works from the first start.
set -eu
cert=/etc/haproxy/certs/site.pem
if [ ! -s "$cert" ]; then
    host="${PROXY_HOSTNAME:-localhost}"
    echo "proxy: no $cert, making a self-signed certificate for $host"
    tmp="$(mktemp -d)"
    openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=$host" \
        -addext "subjectAltName=DNS:$host,DNS:localhost,IP:127.0.0.1" \
        -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
    cat "$tmp/cert.pem" "$tmp/key.pem" > "$cert"
    chmod 600 "$cert"
    rm -rf "$tmp"
fi
exec "$@"
