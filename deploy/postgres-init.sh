#!/bin/sh
# Run once by the postgres image on its first start (compose.yaml): the two roles of
# README's "Two database roles" and the database, owned by the owner. The passwords come
# from compose's environment (.env); psql quotes them (:'name').
set -eu
psql --username postgres --set ON_ERROR_STOP=1 \
    --set owner_password="$OWNER_DB_PASSWORD" --set app_password="$APP_DB_PASSWORD" <<'SQL'
-- The tables' owner: no superuser; may create databases (a restore drill's).
CREATE ROLE rummikub_owner LOGIN NOSUPERUSER CREATEDB NOCREATEROLE PASSWORD :'owner_password';
-- The app's processes: owns nothing, may create nothing.
CREATE ROLE rummikub_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
CREATE DATABASE rummikub OWNER rummikub_owner;
SQL
