import { mountPage } from '../shared/mount';
import LoginPage from './LoginPage.vue';

mountPage(LoginPage);
