-- +goose Up
-- System messages (the `message` page): what an operator sent, and to whom, with read state. The
-- sender's group path bounds who may list a message (data scope); delivery is live over MQTT.
CREATE TABLE messages (
    id          BIGSERIAL PRIMARY KEY,
    sender_id   BIGINT  NOT NULL,
    sender_name TEXT    NOT NULL DEFAULT '',
    group_path  TEXT    NOT NULL,
    title       TEXT    NOT NULL,
    content     TEXT    NOT NULL,
    targets     TEXT    NOT NULL DEFAULT '',
    recipients  INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX messages_created ON messages(created_at);

CREATE TABLE message_recipients (
    message_id BIGINT  NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    user_id    BIGINT  NOT NULL,
    read_at    BIGINT,
    PRIMARY KEY (message_id, user_id)
);
CREATE INDEX message_recipients_user ON message_recipients(user_id, message_id);

-- +goose Down
DROP TABLE message_recipients;
DROP TABLE messages;
