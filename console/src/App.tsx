import { useEffect, useState } from 'react';
import { Alert, Button, Card, ConfigProvider, Form, Input, Layout, Menu, Segmented, Space, Typography } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';
import { ApiError, api, currentToken, setToken, whenUnauthorized } from './api/client';
import { setLanguage, type Language } from './i18n';
import { CredentialsPage } from './pages/Credentials';
import { GroupsPage } from './pages/Groups';
import { AccessKeysPage } from './pages/AccessKeys';
import { TeamsPage } from './pages/Teams';
import { RouteCheckPage } from './pages/RouteCheck';
import { RequestLogsPage } from './pages/RequestLogs';
import { UsagePage } from './pages/Usage';
import { HealthPage } from './pages/Health';
import { SettingsPage } from './pages/Settings';
import { WebhooksPage } from './pages/Webhooks';
import { AuditPage } from './pages/Audit';
import { OverviewPage } from './pages/Overview';

const PAGES = ['overview', 'credentials', 'groups', 'teams', 'accessKeys', 'routeCheck', 'requests', 'usage', 'health', 'webhooks', 'settings', 'audit'] as const;
type PageName = (typeof PAGES)[number];

function pageFromHash(): PageName {
  const name = window.location.hash.replace(/^#\/?/, '');
  return (PAGES as readonly string[]).includes(name) ? (name as PageName) : 'credentials';
}

function LanguageSwitch() {
  const { i18n, t } = useTranslation();
  return (
    <Space>
      <span>{t('language')}</span>
      <Segmented
        data-testid="language-switch"
        value={i18n.language}
        options={[
          { label: '中文', value: 'zh' },
          { label: 'English', value: 'en' },
        ]}
        onChange={(value) => setLanguage(value as Language)}
      />
    </Space>
  );
}

function Login({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async ({ token }: { token: string }) => {
    setBusy(true);
    setError(null);
    try {
      await api('GET', '/settings', undefined, token.trim());
      setToken(token.trim());
      onSignedIn();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 401 ? t('tokenRejected') : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div style={{ maxWidth: 420, margin: '10vh auto' }}>
      <Card title={t('appTitle')} extra={<LanguageSwitch />}>
        <Form layout="vertical" onFinish={submit} autoComplete="off">
          <Form.Item name="token" label={t('adminToken')} extra={t('adminTokenHelp')} rules={[{ required: true }]}>
            <Input.Password id="admin-token" autoFocus />
          </Form.Item>
          {error && <Alert type="error" message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
          <Button type="primary" htmlType="submit" loading={busy} id="sign-in">
            {t('signIn')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

export function App() {
  const { t, i18n } = useTranslation();
  const [signedIn, setSignedIn] = useState(() => currentToken() !== null);
  const [page, setPage] = useState<PageName>(pageFromHash);

  useEffect(() => {
    whenUnauthorized(() => {
      setToken(null);
      setSignedIn(false);
    });
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    document.documentElement.lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  }, [i18n.language]);

  const signOut = () => {
    setToken(null);
    setSignedIn(false);
  };

  return (
    <ConfigProvider
      locale={i18n.language === 'en' ? enUS : zhCN}
      theme={{ token: { borderRadius: 4 } }}
      button={{ autoInsertSpace: false }} // keep the spec's labels verbatim (暂停, 解除), no space inserted
    >
      {!signedIn ? (
        <Login onSignedIn={() => setSignedIn(true)} />
      ) : (
        <Layout style={{ minHeight: '100vh' }}>
          <Layout.Sider width={200} theme="light" breakpoint="lg" collapsedWidth={0}>
            <Typography.Title level={5} style={{ padding: '16px 16px 0' }}>
              {t('appTitle')}
            </Typography.Title>
            <Menu
              mode="inline"
              selectedKeys={[page]}
              items={PAGES.map((name) => ({ key: name, label: <span data-testid={`nav-${name}`}>{t(`nav.${name}`)}</span> }))}
              onClick={({ key }) => {
                window.location.hash = `#/${key}`;
              }}
            />
          </Layout.Sider>
          <Layout>
            <Layout.Header
              style={{ background: '#fff', display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '0 24px' }}
            >
              <Typography.Title level={4} style={{ margin: 0 }}>
                {t(`nav.${page}`)}
              </Typography.Title>
              <Space size="large">
                <LanguageSwitch />
                <Button onClick={signOut} id="sign-out">
                  {t('signOut')}
                </Button>
              </Space>
            </Layout.Header>
            <Layout.Content style={{ padding: 24 }}>
              {page === 'overview' && <OverviewPage />}
              {page === 'credentials' && <CredentialsPage />}
              {page === 'groups' && <GroupsPage />}
              {page === 'teams' && <TeamsPage />}
              {page === 'accessKeys' && <AccessKeysPage />}
              {page === 'routeCheck' && <RouteCheckPage />}
              {page === 'requests' && <RequestLogsPage />}
              {page === 'usage' && <UsagePage />}
              {page === 'health' && <HealthPage />}
              {page === 'webhooks' && <WebhooksPage />}
              {page === 'audit' && <AuditPage />}
              {page === 'settings' && <SettingsPage />}
            </Layout.Content>
          </Layout>
        </Layout>
      )}
    </ConfigProvider>
  );
}
