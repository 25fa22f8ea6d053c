import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type AccessKeyView, type CreatedAccessKey, type GroupView } from '../api/client';
import { usePolling } from '../hooks';

export const PROTOCOLS = ['openai_chat', 'openai_responses', 'anthropic_messages', 'gemini'];

/** The access-key fields the API's validation codes name. */
const KEY_FIELDS: Record<string, string> = {
  'validation.protocol': 'allowed_protocols',
  'validation.models': 'allowed_models',
  'validation.group_ids': 'group_ids',
  'validation.name': 'name',
  'validation.id': 'id',
  'validation.expires_at': 'expires_at',
};

export function AccessKeysPage() {
  const { t } = useTranslation();
  const keys = usePolling(() => api<AccessKeyView[]>('GET', '/access-keys'), 5000);
  const groups = usePolling(() => api<GroupView[]>('GET', '/groups'), 15000);
  const groupNames = new Map((groups.data ?? []).map((g) => [g.id, g.name]));
  const [editing, setEditing] = useState<AccessKeyView | null | undefined>(undefined);
  const [created, setCreated] = useState<CreatedAccessKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm();

  const open = (key: AccessKeyView | null) => {
    setError(null);
    form.resetFields();
    form.setFieldsValue(
      key
        ? { ...key, expires_at: key.expires_at ? dayjs(key.expires_at) : null }
        : { enabled: true, allowed_protocols: [], allowed_models: [], group_ids: [], expires_at: null },
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
      } else {
        setCreated(await api<CreatedAccessKey>('POST', '/access-keys', body));
      }
      setEditing(undefined);
      void keys.reload();
    } catch (e) {
      if (e instanceof ApiError && KEY_FIELDS[e.code]) {
        form.setFields([{ name: KEY_FIELDS[e.code], errors: [`${e.code}: ${e.message}`] }]);
      }
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    }
  };

  const setEnabled = async (key: AccessKeyView, enabled: boolean) => {
    await api('PATCH', `/access-keys/${encodeURIComponent(key.id)}`, { enabled });
    void keys.reload();
  };

  return (
    <>
      <Button type="primary" style={{ marginBottom: 16 }} onClick={() => open(null)} data-testid="key-create">
        {t('create')}
      </Button>
      <Table<AccessKeyView>
        rowKey="id"
        dataSource={keys.data ?? []}
        loading={keys.data === undefined}
        pagination={false}
        onRow={(row) => ({ 'data-key-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('col.name'), render: (_, k) => <a onClick={() => open(k)}>{k.name}</a> },
          { title: t('col.prefix'), render: (_, k) => <Typography.Text code>{k.key_prefix}…</Typography.Text> },
          {
            title: t('col.enabled'),
            render: (_, k) => <Switch size="small" checked={k.enabled} onChange={(checked) => void setEnabled(k, checked)} data-testid="key-enabled" />,
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
            title: t('col.actions'),
            render: (_, k) => (
              <Space>
                <Button size="small" onClick={() => open(k)}>
                  {t('edit')}
                </Button>
                <Popconfirm
                  title={t('confirmDelete')}
                  onConfirm={async () => {
                    await api('DELETE', `/access-keys/${encodeURIComponent(k.id)}`);
                    void keys.reload();
                  }}
                >
                  <Button size="small" danger>
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal open={editing !== undefined} title={editing ? t('key.edit') : t('key.new')} onOk={save} onCancel={() => setEditing(undefined)} destroyOnClose okButtonProps={{ id: 'key-save' } as never}>
        {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical">
          {!editing && (
            <Form.Item name="id" label="id">
              <Input placeholder="optional" />
            </Form.Item>
          )}
          <Form.Item name="name" label={t('col.name')} rules={[{ required: true }]}>
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
          <Form.Item name="group_ids" label={t('key.scope')}>
            <Select mode="multiple" id="key-groups" options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
          </Form.Item>
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
