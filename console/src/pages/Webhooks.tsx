import { useState } from 'react';
import { Button, Drawer, Form, Input, Popconfirm, Select, Space, Switch, Table, Tag, Typography, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, WEBHOOK_EVENT_TYPES, api, listAll, type WebhookDeliveryView, type WebhookView } from '../api/client';
import { usePolling } from '../hooks';
import { ErrorLine } from './LimitsFields';
import { useMay } from '../access';

export interface WebhookFormValues {
  id?: string;
  url: string;
  event_types: string[];
  secret?: string;
  format: 'json' | 'slack';
  enabled: boolean;
}

/**
 * The create / edit body. The secret is write-only: sent on create, and on edit only when a new one
 * was typed (an empty field keeps the stored one; it is never read back).
 */
export function webhookBody(values: WebhookFormValues, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    url: values.url.trim(),
    event_types: values.event_types,
    format: values.format,
    enabled: values.enabled,
  };
  if (creating && values.id) body.id = values.id;
  if (values.secret) body.secret = values.secret;
  return body;
}

const STATUS_COLOR: Record<WebhookDeliveryView['status'], string> = { pending: 'gold', delivered: 'green', failed: 'red' };

function when(at: string | null) {
  return at ? new Date(at).toLocaleString() : '—';
}

/** The delivery log of one endpoint, newest first (the last 100). */
function Deliveries({ webhook }: { webhook: WebhookView }) {
  const { t } = useTranslation();
  const deliveries = usePolling(
    () => api<{ items: WebhookDeliveryView[] }>('GET', `/webhooks/${encodeURIComponent(webhook.id)}/deliveries?limit=100`),
    5000,
    [webhook.id],
  );
  return (
    <>
      <ErrorLine text={deliveries.error ? deliveries.error.message : null} />
      <Table<WebhookDeliveryView>
        rowKey="id"
        size="small"
        pagination={false}
        data-testid="webhook-deliveries"
        loading={deliveries.data === undefined && !deliveries.error}
        dataSource={deliveries.data?.items ?? []}
        onRow={(row) => ({ 'data-delivery-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('webhook.createdAt'), render: (_, d) => when(d.created_at) },
          { title: t('webhook.event'), dataIndex: 'event_type' },
          {
            title: t('webhook.status'),
            render: (_, d) => (
              <Tag color={STATUS_COLOR[d.status]} data-testid="delivery-status">
                {t(`webhook.statuses.${d.status}`)}
              </Tag>
            ),
          },
          { title: t('webhook.attempts'), render: (_, d) => <span data-testid="delivery-attempts">{d.attempts}</span> },
          { title: t('webhook.lastStatus'), render: (_, d) => d.last_status ?? '—' },
          { title: t('webhook.lastError'), render: (_, d) => <Typography.Text type="secondary">{d.last_error ?? '—'}</Typography.Text> },
          { title: t('webhook.nextAttempt'), render: (_, d) => (d.status === 'pending' ? when(d.next_attempt_at) : '—') },
          { title: t('webhook.deliveredAt'), render: (_, d) => when(d.delivered_at) },
          { title: t('webhook.deliveryId'), render: (_, d) => <Typography.Text code>{d.id}</Typography.Text> },
        ]}
      />
    </>
  );
}

export function WebhooksPage() {
  const { t } = useTranslation();
  const webhooks = usePolling(() => listAll<WebhookView>('/webhooks'), 10000);
  const may = useMay();
  const canCreate = may('POST', '/webhooks');
  const canEdit = may('PATCH', '/webhooks/{id}');
  const canDelete = may('DELETE', '/webhooks/{id}');
  const [editing, setEditing] = useState<WebhookView | null | undefined>(undefined);
  const [logOf, setLogOf] = useState<WebhookView | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<WebhookFormValues>();

  const open = (webhook: WebhookView | null) => {
    setFormError(null);
    form.resetFields();
    form.setFieldsValue(
      webhook
        ? { url: webhook.url, event_types: webhook.event_types, format: webhook.format, enabled: webhook.enabled, secret: '' }
        : { event_types: ['credential.revoked', 'credential.error'], format: 'json', enabled: true, secret: '' },
    );
    setEditing(webhook);
  };

  const save = async () => {
    let values: WebhookFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setFormError(null);
    try {
      if (editing) {
        await api('PATCH', `/webhooks/${encodeURIComponent(editing.id)}`, webhookBody(values, false));
      } else {
        await api('POST', '/webhooks', webhookBody(values, true));
      }
      setEditing(undefined);
      void message.success(t('saved'));
      void webhooks.reload();
    } catch (e) {
      setFormError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (webhook: WebhookView) => {
    setListError(null);
    try {
      await api('DELETE', `/webhooks/${encodeURIComponent(webhook.id)}`);
      if (logOf?.id === webhook.id) setLogOf(null);
      void webhooks.reload();
    } catch (e) {
      setListError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('webhook.intro')}</Typography.Paragraph>
      {canCreate && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => open(null)} data-testid="webhook-create">
          {t('create')}
        </Button>
      )}
      <ErrorLine text={listError} testId="webhook-delete-error" />
      <ErrorLine text={webhooks.error && !webhooks.data ? webhooks.error.message : null} />
      <Table<WebhookView>
        rowKey="id"
        dataSource={webhooks.data ?? []}
        loading={webhooks.data === undefined && !webhooks.error}
        pagination={false}
        onRow={(row) => ({ 'data-webhook-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: 'URL', render: (_, w) => <Typography.Text code data-testid="webhook-url">{w.url}</Typography.Text> },
          {
            title: t('webhook.events'),
            render: (_, w) => (
              <span data-testid="webhook-events">
                {w.event_types.map((type) => (
                  <Tag key={type}>{type}</Tag>
                ))}
              </span>
            ),
          },
          { title: t('webhook.format'), dataIndex: 'format' },
          {
            title: t('col.enabled'),
            render: (_, w) => (w.enabled ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>),
          },
          {
            title: t('col.actions'),
            render: (_, w) => (
              <Space>
                <Button size="small" onClick={() => setLogOf(w)} data-testid="webhook-log">
                  {t('webhook.deliveries')}
                </Button>
                {canEdit && (
                  <Button size="small" onClick={() => open(w)} data-testid="webhook-edit">
                    {t('edit')}
                  </Button>
                )}
                {canDelete && (
                  <Popconfirm title={t('confirmDelete')} onConfirm={() => remove(w)}>
                    <Button size="small" danger data-testid="webhook-delete">
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        open={editing !== undefined}
        title={editing ? t('webhook.edit') : t('webhook.new')}
        width={640}
        onClose={() => setEditing(undefined)}
        destroyOnClose
        extra={
          <Space>
            <Button onClick={() => setEditing(undefined)}>{t('cancel')}</Button>
            <Button type="primary" loading={saving} onClick={save} id="webhook-save">
              {t('save')}
            </Button>
          </Space>
        }
      >
        <ErrorLine text={formError} testId="webhook-form-error" />
        <Form form={form} layout="vertical">
          {!editing && (
            <Form.Item htmlFor="webhook-id" name="id" label="id">
              <Input id="webhook-id" placeholder="optional" />
            </Form.Item>
          )}
          <Form.Item htmlFor="webhook-url" name="url" label="URL" extra={t('webhook.urlHelp')} rules={[{ required: true, whitespace: true }]}>
            <Input id="webhook-url" placeholder="https://hooks.example.com/route" />
          </Form.Item>
          <Form.Item htmlFor="webhook-events" name="event_types" label={t('webhook.events')} rules={[{ required: true, type: 'array', min: 1 }]}>
            <Select id="webhook-events" mode="multiple" options={WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type }))} />
          </Form.Item>
          <Form.Item htmlFor="webhook-secret"
            name="secret"
            label={t('webhook.secret')}
            extra={editing ? t('webhook.secretKeep') : t('webhook.secretHelp')}
            rules={editing ? [] : [{ required: true, min: 16 }]}
          >
            <Input.Password id="webhook-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="format" label={t('webhook.format')}>
            <Select
              id="webhook-format"
              options={[
                { value: 'json', label: 'json (route.webhook.v1)' },
                { value: 'slack', label: 'slack' },
              ]}
            />
          </Form.Item>
          <Form.Item htmlFor="webhook-enabled" name="enabled" label={t('col.enabled')} valuePropName="checked">
            <Switch id="webhook-enabled" />
          </Form.Item>
        </Form>
      </Drawer>
      <Drawer open={logOf !== null} title={logOf ? `${t('webhook.deliveries')} · ${logOf.url}` : ''} width={1000} onClose={() => setLogOf(null)}>
        {logOf && <Deliveries webhook={logOf} />}
      </Drawer>
    </>
  );
}
