import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type CreatedAccessKey, type GroupView, type KeyWithLimits, type Limits } from '../api/client';
import { fieldsForCode } from '../health';
import { usePolling } from '../hooks';
import { NO_LIMITS, limitsFromForm, limitsSummary, limitsToSend } from '../limits';
import { keySpend, useSpend } from '../spend';
import { LimitsFields, SpendCell } from './LimitsFields';
import { ifReadable, readableTeams, useMay, useMe } from '../access';

export const PROTOCOLS = ['openai_chat', 'openai_responses', 'anthropic_messages', 'gemini'];

/** The access-key fields the API's validation codes name. */
const KEY_FIELDS: Record<string, string> = {
  'validation.protocol': 'allowed_protocols',
  'validation.models': 'allowed_models',
  'validation.group_ids': 'group_ids',
  'validation.name': 'name',
  'validation.id': 'id',
  'validation.expires_at': 'expires_at',
  'validation.team_id': 'team_id',
};

export const KEY_PAGE_SIZE = 20;

/** Newest first: the key an operator just made (or is looking for after an incident) is on page one. */
export function newestFirst<T extends { created_at: string; id: string }>(keys: readonly T[]): T[] {
  return [...keys].sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
}

/** The form fields an API code belongs to on the key form (the limits codes name their field). */
export function keyFieldsForCode(code: string, message: string): (string | string[])[] {
  if (KEY_FIELDS[code]) return [KEY_FIELDS[code]];
  return code === 'validation.limits' ? fieldsForCode(code, message) : [];
}

/**
 * The team and limits part of a key's body: on create only what is set; on edit only what changed
 * (a team cleared is sent as null, limits with every field, a cleared one null).
 */
export function teamAndLimitsBody(
  values: { team_id?: string | null; limits?: Partial<Record<keyof Limits, unknown>> },
  before: KeyWithLimits | null,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const teamId = values.team_id ?? null;
  if (before === null ? teamId !== null : teamId !== (before.team_id ?? null)) body.team_id = teamId;
  const limits = limitsToSend(limitsFromForm(values.limits), before?.limits, before === null);
  if (limits) body.limits = limits;
  return body;
}

export function AccessKeysPage() {
  const { t } = useTranslation();
  const me = useMe();
  const may = useMay();
  const canCreate = may('POST', '/access-keys');
  const canEdit = may('PATCH', '/access-keys/{id}');
  const canDelete = may('DELETE', '/access-keys/{id}');
  const keys = usePolling(async () => newestFirst(await api<KeyWithLimits[]>('GET', '/access-keys')), 5000);
  // a team role reads neither the groups nor the list of teams: only what it is allowed is asked for
  const groups = usePolling(() => ifReadable(me, '/groups', () => api<GroupView[]>('GET', '/groups'), []), 15000, [me]);
  const teams = usePolling(() => readableTeams(me), 15000, [me]);
  const groupNames = new Map((groups.data ?? []).map((g) => [g.id, g.name]));
  const teamNames = new Map((teams.data ?? []).map((team) => [team.id, team.name]));
  const [current, setCurrent] = useState(1);
  // spend is asked for the keys on this page only, each answer kept 30 s (not once per key per poll)
  const visible = (keys.data ?? []).slice((current - 1) * KEY_PAGE_SIZE, current * KEY_PAGE_SIZE).map((k) => k.id);
  const spendOf = useSpend(keySpend, visible);
  const [editing, setEditing] = useState<KeyWithLimits | null | undefined>(undefined);
  const [created, setCreated] = useState<CreatedAccessKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm();

  const open = (key: KeyWithLimits | null) => {
    setError(null);
    form.resetFields();
    form.setFieldsValue(
      key
        ? { ...key, expires_at: key.expires_at ? dayjs(key.expires_at) : null, team_id: key.team_id ?? null, limits: key.limits ?? NO_LIMITS }
        : { enabled: true, allowed_protocols: [], allowed_models: [], group_ids: [], expires_at: null, team_id: me?.team_id ?? null, limits: NO_LIMITS },
    );
    setEditing(key);
  };

  const save = async () => {
    const values = await form.validateFields();
    const body: Record<string, unknown> = {
      enabled: values.enabled,
      expires_at: values.expires_at ? (values.expires_at as dayjs.Dayjs).toISOString() : null,
      allowed_protocols: values.allowed_protocols ?? [],
      allowed_models: values.allowed_models ?? [],
      group_ids: values.group_ids ?? [],
      ...teamAndLimitsBody(values, editing ?? null),
    };
    if (!editing) {
      body.name = values.name;
      if (values.id) body.id = values.id;
    } else {
      body.name = values.name;
    }
    try {
      if (editing) {
        await api('PATCH', `/access-keys/${encodeURIComponent(editing.id)}`, body);
        keySpend.invalidate(editing.id);
      } else {
        setCreated(await api<CreatedAccessKey>('POST', '/access-keys', body));
        setCurrent(1);
      }
      setEditing(undefined);
      void keys.reload();
    } catch (e) {
      if (e instanceof ApiError) {
        form.setFields(keyFieldsForCode(e.code, e.message).map((name) => ({ name, errors: [`${e.code}: ${e.message}`] })));
      }
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    }
  };

  const setEnabled = async (key: KeyWithLimits, enabled: boolean) => {
    await api('PATCH', `/access-keys/${encodeURIComponent(key.id)}`, { enabled });
    void keys.reload();
  };

  return (
    <>
      {canCreate && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => open(null)} data-testid="key-create">
          {t('create')}
        </Button>
      )}
      <Table<KeyWithLimits>
        rowKey="id"
        dataSource={keys.data ?? []}
        loading={keys.data === undefined}
        pagination={{ current, pageSize: KEY_PAGE_SIZE, onChange: setCurrent, hideOnSinglePage: true, showSizeChanger: false }}
        onRow={(row) => ({ 'data-key-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('col.name'), render: (_, k) => <a onClick={() => open(k)}>{k.name}</a> },
          { title: t('col.prefix'), render: (_, k) => <Typography.Text code>{k.key_prefix}…</Typography.Text> },
          {
            title: t('col.enabled'),
            render: (_, k) => <Switch size="small" checked={k.enabled} disabled={!canEdit} aria-label={t('enabledOf', { name: k.name })} onChange={(checked) => void setEnabled(k, checked)} data-testid="key-enabled" />,
          },
          {
            title: t('col.expires'),
            render: (_, k) =>
              k.expires_at ? (
                <Space>
                  {new Date(k.expires_at).toLocaleString()}
                  {k.expired && <Tag color="red">{t('key.expired')}</Tag>}
                </Space>
              ) : (
                t('key.never')
              ),
          },
          { title: t('col.protocols'), render: (_, k) => ((k.allowed_protocols ?? []).length ? k.allowed_protocols.map((p) => <Tag key={p}>{p}</Tag>) : t('all')) },
          { title: t('col.models'), render: (_, k) => ((k.allowed_models ?? []).length ? k.allowed_models.map((m) => <Tag key={m}>{m}</Tag>) : t('all')) },
          {
            title: t('key.scope'),
            render: (_, k) => (k.group_ids ?? []).map((id, index) => <Tag key={id}>{`${index + 1}. ${groupNames.get(id) ?? id}`}</Tag>),
          },
          {
            title: t('col.team'),
            render: (_, k) => (k.team_id ? <Tag data-testid="key-team">{teamNames.get(k.team_id) ?? k.team_id}</Tag> : null),
          },
          { title: t('col.limits'), render: (_, k) => <span data-testid="key-limits">{limitsSummary(k.limits, t)}</span> },
          { title: t('col.spend'), render: (_, k) => <SpendCell entry={spendOf(k.id)} compact /> },
          {
            title: t('col.actions'),
            render: (_, k) => (
              <Space>
                <Button size="small" onClick={() => open(k)} data-testid="key-edit">
                  {canEdit ? t('edit') : t('view')}
                </Button>
                {canDelete && (
                <Popconfirm
                  title={t('confirmDelete')}
                  onConfirm={async () => {
                    await api('DELETE', `/access-keys/${encodeURIComponent(k.id)}`);
                    void keys.reload();
                  }}
                >
                  <Button size="small" danger data-testid="key-delete">
                    {t('delete')}
                  </Button>
                </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== undefined} title={editing ? (canEdit ? t('key.edit') : t('view')) : t('key.new')} onOk={save} width={760} onCancel={() => setEditing(undefined)} destroyOnClose okButtonProps={{ id: 'key-save' } as never} footer={(editing ? canEdit : canCreate) ? undefined : null}>
        {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" disabled={!(editing ? canEdit : canCreate)}>
          {!editing && (
            <Form.Item name="id" label="id">
              <Input placeholder="optional" />
            </Form.Item>
          )}
          <Form.Item htmlFor="key-name" name="name" label={t('col.name')} rules={[{ required: true }]}>
            <Input id="key-name" />
          </Form.Item>
          <Form.Item name="enabled" label={t('col.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="expires_at" label={t('col.expires')}>
            <DatePicker showTime allowClear />
          </Form.Item>
          <Form.Item name="allowed_protocols" label={t('key.protocolFilter')}>
            <Select mode="multiple" options={PROTOCOLS.map((p) => ({ value: p, label: p }))} />
          </Form.Item>
          <Form.Item name="allowed_models" label={t('key.modelFilter')}>
            <Select mode="tags" open={false} tokenSeparators={[',', ' ']} />
          </Form.Item>
          <Form.Item htmlFor="key-groups" name="group_ids" label={t('key.scope')}>
            <Select mode="multiple" id="key-groups" options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
          </Form.Item>
          <Form.Item name="team_id" label={t('key.team')}>
            <Select
              id="key-team"
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('key.noTeam')}
              options={(teams.data ?? []).map((team) => ({ value: team.id, label: team.name }))}
            />
          </Form.Item>
          <LimitsFields idPrefix="key" help={t('limits.keyHelp')} />
        </Form>
      </Modal>
      <Modal
        open={created !== null}
        title={t('key.plaintextTitle')}
        onOk={() => setCreated(null)}
        onCancel={() => setCreated(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
        destroyOnClose
      >
        <Alert type="warning" message={t('key.plaintextOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph
          copyable={{ text: created?.key ?? '', tooltips: [t('key.copy'), t('key.copied')] }}
          code
          data-testid="key-plaintext"
        >
          {created?.key}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
