import { createApp, type Component } from 'vue';
import { ElMessageBox, provideGlobalConfig, vLoading } from 'element-plus';
import zhCn from 'element-plus/es/locale/lang/zh-cn';
import './styles.css';

/** Mounts a page's root component with the zh-CN locale and the loading directive. */
export function mountPage(root: Component): void {
  const app = createApp(root);
  provideGlobalConfig({ locale: zhCn }, app, true);
  app.use(ElMessageBox);
  app.directive('loading', vLoading);
  app.mount('#app');
}
